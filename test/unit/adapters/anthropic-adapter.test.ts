/** The anthropic adapter against the strict mock Messages API: headers, path, errors, 529 retries; and its settings check. */
import { createAnthropicAdapter } from '../../../adapters/anthropic/anthropic-adapter.js';
import { anthropicKind } from '../../../adapters/anthropic/kind.js';
import type { Adapter } from '../../../src/backend/adapter.js';
import { upstreamError } from '../../../src/errors/catalogue.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { startMockAnthropic, textStream, type MockAnthropic } from '../../helpers/mock-anthropic.js';

const API_KEY = 'sk-ant-test-0123456789';
/** What the proxy answers for a 529, as for a 503 (the catalogue's): `upstream_overloaded`. */
const BUSY = upstreamError(529, 'Overloaded');

const request = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'claude-test'),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

const context = () => ({ signal: new AbortController().signal, requestId: 'req-1' });

async function failure(promise: Promise<unknown>): Promise<ProxyError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

async function collect(adapter: Adapter, neutral: NeutralRequest): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const batch of adapter.stream(neutral, context())) out.push(...batch);
  return out;
}

describe('anthropic adapter', () => {
  let upstream: MockAnthropic;
  let adapter: Adapter;

  beforeAll(async () => {
    upstream = await startMockAnthropic();
    adapter = createAnthropicAdapter(
      {
        url: upstream.url,
        apiKey: API_KEY,
        betas: ['context-management-2025-06-27', 'effort-2025-11-24'],
        retries: { attempts: 2, initialDelayMs: 1, maxDelayMs: 5 },
      },
      { name: 'claude' },
    );
  });
  afterAll(async () => {
    await adapter.close?.();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('POSTs {url}/messages with x-api-key, anthropic-version and anthropic-beta, never Authorization', async () => {
    upstream.reply({ message: {} });
    const result = await adapter.complete(request(), context());
    expect(result.choices[0]).toMatchObject({ text: 'Hello!', finishReason: 'stop' });
    const [sent] = upstream.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({
      'x-api-key': API_KEY,
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'context-management-2025-06-27,effort-2025-11-24',
    });
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({ model: 'claude-test', max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] });
  });

  test('a stream: named SSE events read as they come', async () => {
    upstream.reply({ events: textStream(['Hel', 'lo']) });
    const events = await collect(adapter, request({ stream: { includeUsage: true, tokenIds: false } }));
    expect(events.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'text-delta', 'choice-end', 'usage']);
    expect(upstream.requests[0].body).toMatchObject({ stream: true });
  });

  test('a 529 is tried again, and the next answer is the one the caller gets', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } }
        : { message: { content: [{ type: 'text', text: 'Made it' }] } },
    );
    const retried: ProxyError[] = [];
    const result = await adapter.complete(request(), { ...context(), retrying: (error) => retried.push(error) });
    expect(result.choices[0].text).toBe('Made it');
    expect(upstream.requests).toHaveLength(2);
    expect(retried.map((error) => error.code)).toEqual(['upstream_overloaded']);
  });

  test('529 after every try: the error a 503 is (upstream_overloaded), streamed or not', async () => {
    upstream.reply({ status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } });
    const error = await failure(adapter.complete(request(), context()));
    expect(BUSY.code).toBe('upstream_overloaded');
    expect(error).toMatchObject({ status: BUSY.status, type: BUSY.type, code: BUSY.code, message: BUSY.message });
    expect(upstream.requests).toHaveLength(3);
    const streamed = await failure(collect(adapter, request({ stream: { includeUsage: true, tokenIds: false } })));
    expect(streamed).toMatchObject({ status: BUSY.status, code: BUSY.code });
    expect(upstream.requests).toHaveLength(6);
  });

  test('a 503 is retried by the shared client alone, not once more here', async () => {
    upstream.reply({ status: 503, error: { type: 'api_error', message: 'Unavailable' } });
    expect(await failure(adapter.complete(request(), context()))).toMatchObject({ code: 'upstream_overloaded' });
    expect(upstream.requests).toHaveLength(3);
  });

  test("a 400 names the field at the head of Anthropic's message; the key is masked wherever it is quoted", async () => {
    upstream.reply({
      status: 400,
      error: { type: 'invalid_request_error', message: 'temperature: Input should be less than or equal to 1' },
    });
    expect(await failure(adapter.complete(request(), context()))).toMatchObject({ status: 400, param: 'temperature' });
    upstream.reply({ status: 400, error: { type: 'invalid_request_error', message: 'messages.0.content.1.image.source: bad' } });
    expect(await failure(adapter.complete(request(), context()))).toMatchObject({ param: 'messages[0].content[1].image.source' });
    upstream.reply({
      status: 400,
      error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
    });
    expect(await failure(adapter.complete(request({ origins: { messages: 'messages' } }), context()))).toMatchObject({
      param: 'messages',
      code: 'context_length_exceeded',
    });
    upstream.reply({ status: 404, error: { type: 'not_found_error', message: `model: claude-nope (key ${API_KEY})` } });
    const notFound = await failure(adapter.complete(request(), context()));
    expect(notFound).toMatchObject({ status: 404, param: 'model' });
    expect(notFound.message).not.toContain(API_KEY);
  });

  test('the strict mock refuses what Anthropic refuses: no x-api-key is a 401, the proxy answers it as its own credentials failing', async () => {
    const keyless = createAnthropicAdapter({ url: upstream.url, retries: { attempts: 0 } });
    try {
      expect(await failure(keyless.complete(request(), context()))).toMatchObject({ status: 502, code: 'upstream_auth_failed' });
    } finally {
      await keyless.close?.();
    }
  });
});

describe('anthropic settings', () => {
  const check = (raw: Record<string, unknown>) => () =>
    anthropicKind.check({ kind: 'anthropic', url: 'https://api.anthropic.com/v1', ...raw }, 'backends.claude');

  test('its own keys are checked, naming the key', () => {
    expect(check({ anthropicVersion: '2023-06-01', betas: ['a-1'], defaultMaxTokens: 8192, adaptiveThinking: true })).not.toThrow();
    expect(check({ betas: ['a,b'] })).toThrow(/backends\.claude\.betas\[0\]/);
    expect(check({ defaultMaxTokens: 0 })).toThrow(/backends\.claude\.defaultMaxTokens/);
    expect(check({ adaptiveThinking: 'yes' })).toThrow(/backends\.claude\.adaptiveThinking/);
    expect(check({ url: undefined })).toThrow(/backends\.claude\.url/);
  });

  test('speaks and maxTopLogprobs are not among its keys: the Messages API is chat only, without logprobs', () => {
    expect(anthropicKind.keys).not.toContain('speaks');
    expect(anthropicKind.keys).not.toContain('maxTopLogprobs');
    expect(anthropicKind.keys).toEqual(expect.arrayContaining(['url', 'urls', 'apiKey', 'retries', 'anthropicVersion', 'betas']));
  });

  test('adaptiveThinking decides the efforts the plan sends and whether a budget is taken', async () => {
    const budget = await anthropicKind.create('a', { kind: 'anthropic', url: 'http://backend.invalid/v1' } as never);
    const adaptive = await anthropicKind.create('b', {
      kind: 'anthropic',
      url: 'http://backend.invalid/v1',
      adaptiveThinking: true,
    } as never);
    expect([...budget.capabilities.efforts]).toEqual(['none']);
    expect(budget.capabilities.fields['reasoning.budgetTokens']).toMatchObject({ kind: 'convert' });
    expect([...adaptive.capabilities.efforts]).toEqual(['none', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive']);
    expect(adaptive.capabilities.fields['reasoning.budgetTokens']).toMatchObject({ kind: 'unsupported' });
    expect(budget.capabilities.speaks).toEqual(['chat']);
    await Promise.all([budget.close?.(), adaptive.close?.()]);
  });
});
