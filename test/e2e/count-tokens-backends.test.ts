/**
 * `POST /v1/messages/count_tokens` counted by the routed backend's own tokenizer, through
 * `@anthropic-ai/sdk`'s countTokens: llama.cpp's server (`/v1/chat/completions/input_tokens`,
 * `/tokenize`) and vLLM (`/tokenize`) as strict mocks of those endpoints, and the bundled worker
 * on the built-in model, whose count must equal the prompt tokens a real generation reports.
 * Where the backend cannot count (an old llama-server answering 404), the estimate stands in,
 * said to be one.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startBuiltinProxy, startProxyFor } from '../helpers/start-proxy.js';

const question = { model: 'm', messages: [{ role: 'user' as const, content: 'How many tokens is this?' }] };

async function countWith(client: Anthropic, body: Parameters<Anthropic['messages']['countTokens']>[0] = question) {
  const { data, response } = await client.messages.countTokens(body).withResponse();
  return { tokens: data.input_tokens, how: response.headers.get('x-dialect-token-count') };
}

describe.each([
  {
    kind: 'llama-server',
    path: '/v1/chat/completions/input_tokens',
    answer: { input_tokens: 17 },
    sent: (request: RecordedRequest) =>
      expect(request.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'How many tokens is this?' }] }),
  },
  {
    kind: 'vllm',
    path: '/tokenize',
    answer: { count: 17, max_model_len: 4096, tokens: [] },
    sent: (request: RecordedRequest) =>
      expect(request.body).toEqual({
        model: 'm',
        messages: [{ role: 'user', content: 'How many tokens is this?' }],
        add_generation_prompt: true,
      }),
  },
])('count_tokens by a $kind backend', ({ kind, path, answer, sent }) => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: Anthropic;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind, retries: { attempts: 0 } });
    client = new Anthropic({ baseURL: proxy.url, apiKey: 'unused', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    upstream.aborted.length = 0;
  });

  test("the backend's tokenizer counts the request as the proxy would send it", async () => {
    upstream.reply((request) => (request.path === path ? { json: answer } : { status: 404, json: { error: 'not found' } }));
    expect(await countWith(client)).toEqual({ tokens: 17, how: 'backend' });
    expect(upstream.requests.map((request) => request.path)).toEqual([path]);
    sent(upstream.requests[0]);
  });

  test("a caller that leaves cancels the backend's count", async () => {
    upstream.reply({ hang: true });
    const leaving = new AbortController();
    const sent = fetch(`${proxy.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'unused' },
      body: JSON.stringify(question),
      signal: leaving.signal,
    }).catch(() => undefined);
    while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    leaving.abort();
    await sent;
    for (let waited = 0; upstream.aborted.length === 0 && waited < 2000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.aborted.map((request) => request.path)).toEqual([path]);
  });

  test('a backend that cannot count (404): the estimate, said to be one', async () => {
    upstream.reply({ status: 404, json: { error: { message: 'File Not Found' } } });
    const { tokens, how } = await countWith(client);
    expect(how).toBe('estimate');
    expect(tokens).toBe(Math.ceil('How many tokens is this?'.length / 4));
  });
});

describe('count_tokens by a pool of vLLM replicas', () => {
  test('goes where the pool sends a generation: past a replica that is down, to one that counts', async () => {
    const upstream = await startMockUpstream({ json: { count: 17, max_model_len: 4096, tokens: [] } });
    // Nothing listens on port 9 here: the first replica listed is down.
    const down = 'http://127.0.0.1:9/v1';
    const proxy = await startProxyFor(upstream.url, { kind: 'vllm', url: undefined, urls: [down, upstream.url] });
    try {
      const client = new Anthropic({ baseURL: proxy.url, apiKey: 'unused', maxRetries: 0 });
      expect(await countWith(client)).toEqual({ tokens: 17, how: 'backend' });
      expect(upstream.requests.map(({ path }) => path)).toEqual(['/tokenize']);
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});

describe('count_tokens by the bundled llama.cpp worker (built-in model)', () => {
  let proxy: RunningServer;
  let client: Anthropic;

  beforeAll(async () => {
    proxy = await startBuiltinProxy({ parallel: 1 });
    client = new Anthropic({ baseURL: proxy.url, apiKey: 'unused', maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  test('the count is the prompt a generation reads: the chat template applied, the system prompt and tools included', async () => {
    const body = {
      model: 'local-model',
      system: 'You answer in one word.',
      messages: [
        { role: 'user' as const, content: 'Hello there' },
        { role: 'assistant' as const, content: 'Hi' },
        { role: 'user' as const, content: 'How are you today?' },
      ],
    };
    const counted = await countWith(client, body);
    expect(counted.how).toBe('backend');
    const message = await client.messages.create({ ...body, max_tokens: 1 });
    expect(counted.tokens).toBe(message.usage.input_tokens);
    // Not the estimate by another name.
    const estimate = Math.ceil((body.system.length + 'Hello there'.length + 'Hi'.length + 'How are you today?'.length) / 4);
    expect(counted.tokens).not.toBe(estimate);
  });
});
