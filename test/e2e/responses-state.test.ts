/**
 * The Responses API's state through the running proxy: stateless by default
 * (previous_response_id and background refused by name, nothing to fetch),
 * and with `responses.store` configured: store, previous_response_id (each
 * response keeps its own turn; the chain is walked back), GET, input_items,
 * DELETE, background runs, their cancel, their limits and their end at a
 * shutdown. The attacks these bound are in test/security/response-store.test.ts.
 */
import { Writable } from 'node:stream';
import OpenAI from 'openai';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const completion = (id: string, content: string) => ({
  id,
  object: 'chat.completion',
  created,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});
const chunk = (id: string, delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The Response's `store` (the SDK's type leaves it out; the API sends it). */
const storeOf = (response: object): unknown => (response as { store?: unknown }).store;

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out waiting');
}

describe('Responses state: stateless by default', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;
  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai' });
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('previous_response_id is refused by name, and nothing goes upstream', async () => {
    upstream.requests.length = 0;
    const error = await client.responses
      .create({ model: 'm', input: 'Hi', previous_response_id: 'resp_1' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('previous_response_id');
    expect((error as Error).message).toMatch(/needs a response store/);
    expect(upstream.requests).toHaveLength(0);
  });

  test('background: true is refused by name; background: false asks for nothing', async () => {
    const error = await client.responses.create({ model: 'm', input: 'Hi', background: true }).catch((thrown: unknown) => thrown);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('background');
    upstream.reply({ json: completion('chatcmpl-b', 'Hello') });
    expect((await client.responses.create({ model: 'm', input: 'Hi', background: false })).output_text).toBe('Hello');
  });

  test('store: true answers, says in a warning that nothing was kept, and repeats store: false', async () => {
    upstream.reply({ json: completion('chatcmpl-s', 'Hello') });
    const { data, response } = await client.responses.create({ model: 'm', input: 'Hi', store: true }).withResponse();
    expect(storeOf(data)).toBe(false);
    expect(response.headers.get('x-dialect-warnings')).toMatch(/no response store is configured/);
    const lookup = await client.responses.retrieve(data.id).catch((thrown: unknown) => thrown);
    expect(lookup).toBeInstanceOf(OpenAI.NotFoundError);
    expect((lookup as Error).message).toMatch(/no response store is configured/);
  });
});

describe('Responses state with an in-memory store', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;
  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai' },
      { responses: { store: { kind: 'memory', maxResponses: 100, maxAgeSeconds: 60 } } },
    );
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('a stored response is fetched, continued with previous_response_id, listed, and deleted', async () => {
    upstream.reply({ json: completion('chatcmpl-1', 'Paris.') });
    const first = await client.responses.create({ model: 'm', instructions: 'Be brief.', input: 'Capital of France?', store: true });
    expect(storeOf(first)).toBe(true);
    expect((await client.responses.retrieve(first.id)).output_text).toBe('Paris.');

    upstream.reply({ json: completion('chatcmpl-2', 'Berlin.') });
    const second = await client.responses.create({ model: 'm', input: 'And of Germany?', previous_response_id: first.id, store: true });
    expect(second.previous_response_id).toBe(first.id);
    // The earlier turns come first; the earlier instructions are not carried over (as OpenAI does).
    expect(upstream.requests[1].body).toMatchObject({
      messages: [
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: 'And of Germany?' },
      ],
    });
    // Newest first, as OpenAI lists them, each a typed message item.
    const items = await client.responses.inputItems.list(second.id);
    expect(items.data).toEqual([
      {
        id: expect.any(String),
        type: 'message',
        role: 'user',
        status: 'completed',
        content: [{ type: 'input_text', text: 'And of Germany?' }],
      },
      expect.objectContaining({
        type: 'message',
        role: 'assistant',
        content: [expect.objectContaining({ type: 'output_text', text: 'Paris.' })],
      }),
      {
        id: expect.any(String),
        type: 'message',
        role: 'user',
        status: 'completed',
        content: [{ type: 'input_text', text: 'Capital of France?' }],
      },
    ]);

    await client.responses.delete(first.id);
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // The second response keeps only its own turn: it is still there, but its conversation reaches a response gone.
    expect((await client.responses.retrieve(second.id)).output_text).toBe('Berlin.');
    const broken = await client.responses
      .create({ model: 'm', input: 'And of Italy?', previous_response_id: second.id })
      .catch((thrown: unknown) => thrown);
    expect(broken).toBeInstanceOf(OpenAI.NotFoundError);
    expect((broken as Error).message).toContain(`'${first.id}', which is no longer stored`);
  });

  test('each response keeps its own turn: a long conversation is rebuilt from the chain, and listed whole', async () => {
    let previous: string | undefined;
    for (const city of ['Paris', 'Rome', 'Oslo']) {
      upstream.reply({ json: completion(`chatcmpl-${city}`, `${city}.`) });
      previous = (
        await client.responses.create({ model: 'm', input: `Capital ${city}?`, ...(previous ? { previous_response_id: previous } : {}) })
      ).id;
    }
    const last = upstream.requests[upstream.requests.length - 1].body as { messages: { content: string }[] };
    expect(last.messages.map((message) => message.content)).toEqual([
      'Capital Paris?',
      'Paris.',
      'Capital Rome?',
      'Rome.',
      'Capital Oslo?',
    ]);
    const items = await client.responses.inputItems.list(previous as string);
    expect(items.data).toHaveLength(5);
  });

  test('a streamed response with store: true is kept once it completes', async () => {
    upstream.reply({
      sse: [
        chunk('chatcmpl-3', { role: 'assistant', content: '' }),
        chunk('chatcmpl-3', { content: 'Hel' }),
        chunk('chatcmpl-3', { content: 'lo' }),
        chunk('chatcmpl-3', {}, 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const stream = client.responses.stream({ model: 'm', input: 'Hi', store: true });
    const final = await stream.finalResponse();
    expect(storeOf(final)).toBe(true);
    expect((await client.responses.retrieve(final.id)).output_text).toBe('Hello');
  });

  test('with a store, a request that leaves store out is kept, as on OpenAI; store: false is not', async () => {
    upstream.reply({ json: completion('chatcmpl-4', 'Kept') });
    const kept = await client.responses.create({ model: 'm', input: 'Hi' });
    expect(storeOf(kept)).toBe(true);
    expect((await client.responses.retrieve(kept.id)).output_text).toBe('Kept');
    upstream.reply({ json: completion('chatcmpl-5', 'Not kept') });
    const unkept = await client.responses.create({ model: 'm', input: 'Hi', store: false });
    expect(storeOf(unkept)).toBe(false);
    await expect(client.responses.retrieve(unkept.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  test('previous_response_id naming an unknown response is a 404 naming it', async () => {
    const error = await client.responses
      .create({ model: 'm', input: 'Hi', previous_response_id: 'resp_nope' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('previous_response_id');
  });

  test('background: answered at once as queued, then completed in the store', async () => {
    upstream.reply({ json: completion('chatcmpl-6', 'Done.') });
    const queued = await client.responses.create({ model: 'm', input: 'Work', background: true });
    expect(queued.status).toBe('queued');
    expect(queued.background).toBe(true);
    const done = await until(
      () => client.responses.retrieve(queued.id),
      (response) => response.status === 'completed',
    );
    expect(done.id).toBe(queued.id);
    expect(done.output_text).toBe('Done.');
  });

  test('a background response can be cancelled while it runs; the upstream request is aborted', async () => {
    upstream.reply({ hang: true });
    const queued = await client.responses.create({ model: 'm', input: 'Work', background: true });
    await until(
      async () => upstream.requests.length,
      (count) => count > 0,
    );
    const cancelled = await client.responses.cancel(queued.id);
    expect(cancelled.status).toBe('cancelled');
    await until(
      async () => upstream.aborted.length,
      (count) => count > 0,
    );
    expect((await client.responses.retrieve(queued.id)).status).toBe('cancelled');
  });

  test('background with stream is refused by name', async () => {
    const error = await client.responses
      .create({ model: 'm', input: 'Hi', background: true, stream: true })
      .catch((thrown: unknown) => thrown);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('background');
  });
});

describe('Responses state: what the store keeps, and the background runs of each key', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const logs: Record<string, unknown>[] = [];
  const call = (key: string, body: Record<string, unknown>) =>
    fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'm', ...body }),
    });
  beforeAll(async () => {
    upstream = await startMockUpstream((request) =>
      JSON.stringify(request.body).includes('slow') ? { hang: true } : { json: completion('chatcmpl-k', 'x'.repeat(4096)) },
    );
    const config = loadConfig({
      server: { apiKeys: ['key-a', 'key-b'] },
      backends: { upstream: { url: upstream.url, kind: 'openai' } },
      routes: [{ model: '*', backend: 'upstream' }],
      responses: { store: { maxResponseBytes: 2048 } },
      limits: { backgroundRunsPerKey: 2 },
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream: sink, level: 'warn' }) });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('store: true with an input larger than a stored response may be is a 400 naming the limit, before anything goes upstream', async () => {
    upstream.requests.length = 0;
    const response = await call('key-a', { input: 'y'.repeat(4096), store: true });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; param: string; message: string } };
    expect(error).toMatchObject({ code: 'limit_exceeded', param: 'store' });
    expect(error.message).toContain('(responses.store.maxResponseBytes).');
    expect(upstream.requests).toHaveLength(0);
  });

  test('an answer too large to keep goes out with store: false, and the log says it was not kept', async () => {
    const response = await call('key-a', { input: 'Hi' });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { id: string; store: boolean };
    expect(answer.store).toBe(false);
    expect(logs.some((entry) => entry.message === 'response not kept' && /maxResponseBytes/.test(String(entry.error)))).toBe(true);
    expect((await fetch(`${proxy.url}/v1/responses/${answer.id}`, { headers: { authorization: 'Bearer key-a' } })).status).toBe(404);
  });

  test('one key runs at most limits.backgroundRunsPerKey background responses; another key still may', async () => {
    const first = await Promise.all([
      call('key-a', { input: 'slow 1', background: true }),
      call('key-a', { input: 'slow 2', background: true }),
    ]);
    expect(first.map((response) => response.status)).toEqual([200, 200]);
    const third = await call('key-a', { input: 'slow 3', background: true });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(((await third.json()) as { error: { message: string } }).error.message).toContain('limits.backgroundRunsPerKey');
    expect((await call('key-b', { input: 'slow 4', background: true })).status).toBe(200);
  });
});

describe('Responses state: a shutdown ends background runs', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream({ hang: true });
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: {} } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a background run is a request in flight: the drain waits out its grace, then aborts it, and the store says it failed', async () => {
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
    const queued = await client.responses.create({ model: 'm', input: 'Work', background: true });
    await until(
      async () => upstream.requests.length,
      (count) => count > 0,
    );
    const outcome = await proxy.proxy.drain(100);
    expect(outcome.ended).toBe(1);
    await until(
      async () => upstream.aborted.length,
      (count) => count > 0,
    );
    const after = await client.responses.retrieve(queued.id);
    expect(after.status).toBe('failed');
    expect(after.error?.message).toMatch(/shut/i);
  });
});

describe('Responses state with a store that keeps only what is asked (storeByDefault: false)', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;
  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: { storeByDefault: false } } });
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a request that leaves store out is not kept', async () => {
    upstream.reply({ json: completion('chatcmpl-7', 'Hi') });
    const answer = await client.responses.create({ model: 'm', input: 'Hi' });
    expect(storeOf(answer)).toBe(false);
    await expect(client.responses.retrieve(answer.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe("Responses state: a malformed input is still the validator's to name", () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: {} } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('input: 5 with a previous_response_id is a 400 naming input, not the earlier turns alone', async () => {
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: 5, previous_response_id: 'resp_x' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('input');
    expect(upstream.requests).toHaveLength(0);
  });
});
