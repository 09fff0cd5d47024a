/**
 * The OpenAI and Fireworks adapters against an in-process upstream on
 * 127.0.0.1: the exact request sent, keep-alive reuse, abort propagation,
 * and error mapping.
 */
import { choicesAreNative, supports } from '../../../src/backend/capabilities.js';
import { handlingOf } from '../../../src/backend/field-support.js';
import { unsupportedFields } from '../../helpers/unsupported-fields.js';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Adapter, AdapterContext } from '../../../src/backend/adapter.js';
import { createFireworksAdapter, fireworksCapabilities } from '../../../adapters/fireworks/kind.js';
import { createOpenAIAdapter, openAICapabilities } from '../../../adapters/openai/kind.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamBatches, StreamEvent } from '../../../src/model/stream-event.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const KEY = 'sk-test-KEY123';
const chatRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'gpt-4o'),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
const streamed = [
  chunk('Hel'),
  chunk('lo'),
  chunk('', 'stop'),
  `data: ${JSON.stringify({ id: 'c1', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })}\n\n`,
  'data: [DONE]\n\n',
];

function context(extra: Partial<AdapterContext> = {}): AdapterContext {
  return { signal: new AbortController().signal, requestId: 'req-1', ...extra };
}

async function collect(batches: StreamBatches): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of eachEvent(batches)) out.push(event);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<ProxyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

describe('remote adapters over HTTP', () => {
  let upstream: MockUpstream;
  let adapter: Adapter;
  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    upstream.aborted.length = 0;
    adapter = createOpenAIAdapter({ kind: 'openai', url: `${upstream.url}/`, apiKey: KEY, headers: { 'OpenAI-Organization': 'org-1' } });
  });
  afterEach(() => adapter.close?.());
  afterAll(() => upstream.close());

  test('complete: the exact body and headers sent, and the result read back', async () => {
    upstream.reply({ json: completion });
    const result = await adapter.complete(
      chatRequest({ limits: { maxTokens: 5, stop: [], onContextOverflow: 'truncate' } }),
      context({ headers: { 'x-session-affinity': 'sess-9', 'x-multi-turn-session-id': 'turns-3', cookie: 'no' } }),
    );
    expect(result.choices).toEqual([{ index: 0, text: 'Hello', finishReason: 'stop' }]);
    const [sent] = upstream.requests;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 5 });
    expect(sent.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-request-id': 'req-1',
      'x-session-affinity': 'sess-9',
      'x-multi-turn-session-id': 'turns-3',
      'openai-organization': 'org-1',
    });
    expect(sent.headers.cookie).toBeUndefined();
  });

  test('stream: stream + include_usage sent; events read back', async () => {
    upstream.reply({ sse: streamed });
    const events = await collect(adapter.stream(chatRequest({ stream: { includeUsage: false, tokenIds: false } }), context()));
    expect(upstream.requests[0].body).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(upstream.requests[0].headers.accept).toBe('text/event-stream');
    expect(events).toEqual([
      { type: 'response-start', id: 'c1', model: 'gpt-4o', created: 1 },
      { type: 'text-delta', choice: 0, delta: 'Hel' },
      { type: 'text-delta', choice: 0, delta: 'lo' },
      { type: 'choice-end', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
    ]);
  });

  test('429 with retry-after, 500, and 401 (without the key) map to ProxyErrors; a stream fails before its first event', async () => {
    upstream.reply({
      status: 429,
      headers: { 'retry-after': '12' },
      json: { error: { message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    expect(await rejection(adapter.complete(chatRequest(), context()))).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
      retryAfterSeconds: 12,
      message: 'Slow down',
    });
    const iterator = adapter.stream(chatRequest({ stream: { includeUsage: true, tokenIds: false } }), context())[Symbol.asyncIterator]();
    expect(await rejection(iterator.next())).toMatchObject({ status: 429, retryAfterSeconds: 12 });

    upstream.reply({ status: 500, json: { error: { message: 'kaboom', type: 'server_error' } } });
    expect(await rejection(adapter.complete(chatRequest(), context()))).toMatchObject({
      status: 502,
      type: 'upstream_error',
      message: 'The upstream backend failed with HTTP 500: kaboom',
    });

    upstream.reply({ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } } });
    const auth = await rejection(adapter.complete(chatRequest(), context()));
    expect(auth).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    expect(auth.message).not.toContain(KEY);
  });

  test('a 200 that is not JSON is a 502', async () => {
    upstream.reply({ sse: 'not json at all' });
    expect(await rejection(adapter.complete(chatRequest(), context()))).toMatchObject({ status: 502, code: 'upstream_bad_response' });
  });

  test('aborting the signal closes the upstream request at once (complete)', async () => {
    upstream.reply({ hang: true });
    const controller = new AbortController();
    const pending = rejection(adapter.complete(chatRequest(), context({ signal: controller.signal })));
    await until(() => upstream.requests.length === 1);
    controller.abort();
    expect(await pending).toMatchObject({ status: 499, code: 'client_closed_request' });
    await until(() => upstream.aborted.length === 1);
  });

  test('aborting mid-stream closes the upstream request; so does a consumer that stops reading', async () => {
    upstream.reply({ sse: [chunk('a'), chunk('b'), chunk('c'), chunk('', 'stop'), 'data: [DONE]\n\n'], delayMs: 300 });
    const controller = new AbortController();
    const batches = adapter.stream(
      chatRequest({ stream: { includeUsage: true, tokenIds: false } }),
      context({ signal: controller.signal }),
    );
    const iterator = batches[Symbol.asyncIterator]();
    // The first packet's events come together: the response's start and the first chunk's text.
    expect((await iterator.next()).value).toEqual([
      { type: 'response-start', id: 'c1', model: 'gpt-4o', created: 1 },
      { type: 'text-delta', choice: 0, delta: 'a' },
    ]);
    controller.abort();
    const rest: StreamEvent[][] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value);
    // Then the abort ends the stream.
    expect(rest).toEqual([[{ type: 'error', error: expect.objectContaining({ status: 499 }) }]]);
    await until(() => upstream.aborted.length === 1);

    const early = adapter.stream(chatRequest({ stream: { includeUsage: true, tokenIds: false } }), context())[Symbol.asyncIterator]();
    await early.next();
    await early.return?.();
    await until(() => upstream.aborted.length === 2);
  });

  test('timeouts.totalMs bounds the exchange: 504', async () => {
    const slow = createOpenAIAdapter({ kind: 'openai', url: upstream.url, timeouts: { totalMs: 150 } });
    upstream.reply({ hang: true });
    try {
      expect(await rejection(slow.complete(chatRequest(), context()))).toMatchObject({ status: 504, type: 'timeout_error' });
    } finally {
      await slow.close?.();
    }
  });

  test('connection refused: 502 naming the host', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const dead = createOpenAIAdapter({ kind: 'openai', url: `http://127.0.0.1:${port}/v1` });
    try {
      expect(await rejection(dead.complete(chatRequest(), context()))).toMatchObject({
        status: 502,
        type: 'upstream_error',
        code: 'upstream_unreachable',
        message: `Could not reach the upstream backend 127.0.0.1:${port}: connection refused.`,
      });
    } finally {
      await dead.close?.();
    }
  });

  test('fireworks: completions go to /completions with the Fireworks body', async () => {
    const fireworks = createFireworksAdapter({ kind: 'fireworks', url: upstream.url, apiKey: KEY });
    upstream.reply({
      json: {
        id: 'cmpl-1',
        object: 'text_completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, text: ' there', finish_reason: 'length' }],
      },
    });
    try {
      const request: NeutralRequest = { ...emptyRequest('text', 'accounts/fireworks/models/m'), prompt: 'Hi', sampling: { topK: 5 } };
      expect((await fireworks.complete(request, context())).choices).toEqual([{ index: 0, text: ' there', finishReason: 'length' }]);
      expect(upstream.requests[0]).toMatchObject({
        path: '/v1/completions',
        body: { model: 'accounts/fireworks/models/m', prompt: 'Hi', top_k: 5 },
      });
    } finally {
      await fireworks.close?.();
    }
  });

  test('an endpoint the backend does not speak is an internal error (the plan translates first)', async () => {
    const request: NeutralRequest = { ...emptyRequest('text', 'gpt-4o'), prompt: 'Hi' };
    expect(await rejection(adapter.complete(request, context()))).toMatchObject({ status: 500, code: 'internal_error' });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('keep-alive', () => {
  let server: Server;
  let url: string;
  let connections = 0;
  let lateTail = false;
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      req.resume();
      req.on('end', () => {
        if (req.headers.accept === 'text/event-stream') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          if (!lateTail) res.end(streamed.join(''));
          else {
            // Some servers send more and end the body a moment after [DONE].
            res.write(streamed.join(''));
            setTimeout(() => res.write('\n'), 20);
            setTimeout(() => res.end('\n'), 40);
          }
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(completion));
        }
      });
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('sequential requests, whole and streamed, share one connection', async () => {
    const adapter = createOpenAIAdapter({ kind: 'openai', url });
    try {
      // undici hands the socket back to its pool one tick after the body ends; a real next request comes later still.
      const tick = () => new Promise((resolve) => setImmediate(resolve));
      await adapter.complete(chatRequest(), context());
      await tick();
      expect(await collect(adapter.stream(chatRequest({ stream: { includeUsage: true, tokenIds: false } }), context()))).toHaveLength(5);
      await tick();
      await adapter.complete(chatRequest(), context());
      await tick();
      expect(await collect(adapter.stream(chatRequest({ stream: { includeUsage: true, tokenIds: false } }), context()))).toHaveLength(5);
      expect(connections).toBe(1);
    } finally {
      await adapter.close?.();
    }
  });

  test('a body that ends after [DONE] is read to its end: the connection is kept', async () => {
    const adapter = createOpenAIAdapter({ kind: 'openai', url });
    lateTail = true;
    const before = connections;
    try {
      const tick = () => new Promise((resolve) => setImmediate(resolve));
      for (let i = 0; i < 2; i++) {
        expect(await collect(adapter.stream(chatRequest({ stream: { includeUsage: true, tokenIds: false } }), context()))).toHaveLength(5);
        await tick();
      }
      expect(connections - before).toBe(1);
    } finally {
      lateTail = false;
      await adapter.close?.();
    }
  });
});

describe('capabilities', () => {
  test('openai: strict OpenAI, completions features only when it speaks completions', () => {
    const chatOnly = openAICapabilities({ kind: 'openai', url: 'https://api.openai.com/v1' });
    expect(chatOnly.speaks).toEqual(['chat']);
    expect(unsupportedFields(chatOnly)).toEqual([
      'cacheControl',
      'contextManagement',
      'echo',
      'echo.lastTokens',
      'images',
      'limits.ignoreEos',
      'prompt:tokenIds',
      'promptCacheIsolationKey',
      'rawOutput',
      'reasoning.budgetEndText',
      'reasoning.budgetTokens',
      'reasoning.history',
      'responseFormat:grammar',
      'returnTokenIds',
      'sampling.minP',
      'sampling.mirostat',
      'sampling.repetitionPenalty',
      'sampling.topK',
      'sampling.typicalP',
      'samplingMask',
      'stream.tokenIds',
      'toolError',
    ]);
    expect(chatOnly.maxTopLogprobs).toBe(20);
    expect(choicesAreNative(chatOnly)).toBe(true);
    expect([...chatOnly.efforts]).toEqual(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
    expect([...chatOnly.relayed.chat].sort()).toEqual([
      'audio',
      'modalities',
      'moderation',
      'prompt_cache_options',
      'prompt_cache_retention',
      'safety_identifier',
      'verbosity',
      'web_search_options',
    ]);
    expect(chatOnly.relayed.text.size).toBe(0);
    const both = openAICapabilities({ kind: 'openai', url: 'http://llama:8089/v1', speaks: ['completions', 'chat'], maxTopLogprobs: 10 });
    expect((['echo', 'prompt:tokenIds'] as const).every((field) => supports(both, field))).toBe(true);
    expect(handlingOf(both.fields, 'prompt:batch', 'text').kind).toBe('native');
    expect(both.maxTopLogprobs).toBe(10);
  });

  test('fireworks: every feature but store and audio; 5 top logprobs unless configured', () => {
    const capabilities = fireworksCapabilities({ kind: 'fireworks', url: 'https://api.fireworks.ai/inference/v1' });
    expect(capabilities.speaks).toEqual(['completions', 'chat']);
    expect(unsupportedFields(capabilities)).toEqual(['cacheControl', 'contextManagement', 'store', 'toolError']);
    expect(capabilities.maxTopLogprobs).toBe(5);
    expect([...capabilities.efforts]).toEqual(['low', 'medium', 'high', 'xhigh', 'max', 'none', 'adaptive']);
    expect([...capabilities.relayed.chat]).toEqual(['prompt_truncate_len', 'safe_tokenization']);
  });
});
