/**
 * The Responses API's state through the running proxy: stateless by default
 * (previous_response_id and background refused by name, nothing to fetch),
 * and with `responses.store` configured: store, previous_response_id, GET,
 * input_items, DELETE, background runs and their cancel.
 */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const completion = (id: string, content: string) => ({
  id, object: 'chat.completion', created, model: 'm',
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
    const error = await client.responses.create({ model: 'm', input: 'Hi', previous_response_id: 'resp_1' }).catch((thrown: unknown) => thrown);
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
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: { kind: 'memory', maxResponses: 100, maxAgeSeconds: 60 } } });
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
      { id: expect.any(String), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'And of Germany?' }] },
      expect.objectContaining({ type: 'message', role: 'assistant', content: [expect.objectContaining({ type: 'output_text', text: 'Paris.' })] }),
      { id: expect.any(String), type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Capital of France?' }] },
    ]);

    await client.responses.delete(first.id);
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    // The second response still has the whole conversation.
    expect((await client.responses.retrieve(second.id)).output_text).toBe('Berlin.');
  });

  test('a streamed response with store: true is kept once it completes', async () => {
    upstream.reply({ sse: [chunk('chatcmpl-3', { role: 'assistant', content: '' }), chunk('chatcmpl-3', { content: 'Hel' }), chunk('chatcmpl-3', { content: 'lo' }), chunk('chatcmpl-3', {}, 'stop'), 'data: [DONE]\n\n'] });
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
    const error = await client.responses.create({ model: 'm', input: 'Hi', previous_response_id: 'resp_nope' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('previous_response_id');
  });

  test('background: answered at once as queued, then completed in the store', async () => {
    upstream.reply({ json: completion('chatcmpl-6', 'Done.') });
    const queued = await client.responses.create({ model: 'm', input: 'Work', background: true });
    expect(queued.status).toBe('queued');
    expect(queued.background).toBe(true);
    const done = await until(() => client.responses.retrieve(queued.id), (response) => response.status === 'completed');
    expect(done.id).toBe(queued.id);
    expect(done.output_text).toBe('Done.');
  });

  test('a background response can be cancelled while it runs; the upstream request is aborted', async () => {
    upstream.reply({ hang: true });
    const queued = await client.responses.create({ model: 'm', input: 'Work', background: true });
    await until(async () => upstream.requests.length, (count) => count > 0);
    const cancelled = await client.responses.cancel(queued.id);
    expect(cancelled.status).toBe('cancelled');
    await until(async () => upstream.aborted.length, (count) => count > 0);
    expect((await client.responses.retrieve(queued.id)).status).toBe('cancelled');
  });

  test('background with stream is refused by name', async () => {
    const error = await client.responses.create({ model: 'm', input: 'Hi', background: true, stream: true }).catch((thrown: unknown) => thrown);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('background');
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

describe('Responses state: a malformed input is still the validator\'s to name', () => {
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
    const response = await fetch(`${proxy.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', input: 5, previous_response_id: 'resp_x' }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('input');
    expect(upstream.requests).toHaveLength(0);
  });
});
