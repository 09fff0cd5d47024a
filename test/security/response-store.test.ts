/**
 * Attacks on the Responses API's state (`responses.store`), each of which
 * worked on the first build of it:
 * - memory: every stored response kept a copy of its whole previous_response_id
 *   history, so one large input and many tiny continuations filled the heap;
 * - tenancy: any API key could read, list, continue, reference, delete or
 *   cancel any stored response;
 * - ids: a response id was the upstream's, so an upstream that repeats ids (or
 *   sends none) let one caller's response overwrite another's;
 * - background runs: unbounded (3,000 requests held 3,000 upstream requests
 *   open), and a run the store had evicted could not be cancelled.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const completion = (content: string, id?: string) => ({
  ...(id === undefined ? {} : { id }),
  object: 'chat.completion',
  created: 1700000000,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

type Json = Record<string, unknown> & { error?: { code: string; param: string | null; message: string } };

/** One call to the proxy as `key`; the status and the JSON body. */
async function call(
  proxy: RunningServer,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

const create = (proxy: RunningServer, key: string, body: Record<string, unknown>) =>
  call(proxy, 'POST', '/v1/responses', key, { model: 'm', ...body });

async function until(probe: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The text of the user messages of an upstream request: which test request it is. */
const askedText = (request: RecordedRequest) => JSON.stringify((request.body as { messages?: unknown }).messages ?? '');

/** A full collection, when this process can ask for one (v8's flag, read in a fresh context). */
function collector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return (globalThis as { gc?: () => void }).gc ?? (runInNewContext('gc') as () => void);
  } catch {
    return undefined;
  }
}

async function metric(proxy: RunningServer, name: string): Promise<number> {
  const text = await (await fetch(`${proxy.url}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

const MiB = 1024 * 1024;

describe('continuations do not copy the conversation', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    // A distinct upstream id each time, as a real upstream gives: on the old build a repeated one hid the growth (every answer overwrote one entry).
    let answered = 0;
    upstream = await startMockUpstream(() => ({ json: completion('ok', `chatcmpl-${answered++}`) }));
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: {} } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('one 4 MB input and 100 tiny continuations grow the heap by far less than 100 x 4 MB', async () => {
    const big = 'x'.repeat(4 * MiB);
    const gc = collector();
    gc?.();
    const before = process.memoryUsage().heapUsed;
    let last = await create(proxy, 'none', { input: big, store: true });
    expect(last.status).toBe(200);
    for (let i = 0; i < 100; i++) {
      upstream.requests.length = 0; // the mock keeps what it receives: 4 MB a request
      last = await create(proxy, 'none', { input: `turn ${i}`, previous_response_id: last.body.id, store: true });
      expect(last.status).toBe(200);
    }
    upstream.requests.length = 0;
    if (gc) {
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      // The old build: ~100 copies of the 4 MB turn (412 MiB measured). Now: one, plus the small turns (~9 MiB).
      expect(grown).toBeLessThan(40 * MiB);
    }
    // The store's own count says the same, with or without a collector.
    const storeBytes = await metric(proxy, 'dialect_proxy_response_store_bytes');
    expect(storeBytes).toBeGreaterThan(4 * MiB);
    expect(storeBytes).toBeLessThan(5 * MiB);
    // And the conversation is whole: the 4 MB turn and each turn after it, each answer but the last.
    const items = await call(proxy, 'GET', `/v1/responses/${String(last.body.id)}/input_items`, 'none');
    expect(items.body.data).toHaveLength(101 + 100);
    expect(JSON.stringify(items.body.data).length).toBeGreaterThan(4 * MiB);
  }, 120_000);
});

describe("a stored response is its owner's alone", () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream((request) =>
      askedText(request).includes('slow') ? { hang: true } : { json: completion('the secret answer', 'chatcmpl-a') },
    );
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { server: { apiKeys: ['key-a', 'key-b'] }, responses: { store: {} } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test("key B gets 404 on key A's response for GET, input_items, DELETE, cancel, previous_response_id and item_reference", async () => {
    const answer = await create(proxy, 'key-a', { input: 'my secret question', store: true });
    expect(answer.status).toBe(200);
    const id = String(answer.body.id);
    const itemId = String((answer.body.output as { id: string }[])[0].id);
    const running = await create(proxy, 'key-a', { input: 'slow work', background: true });
    const runId = String(running.body.id);
    await until(() => upstream.requests.some((request) => askedText(request).includes('slow')), 'the background run upstream');

    const tries = {
      get: await call(proxy, 'GET', `/v1/responses/${id}`, 'key-b'),
      inputItems: await call(proxy, 'GET', `/v1/responses/${id}/input_items`, 'key-b'),
      delete: await call(proxy, 'DELETE', `/v1/responses/${id}`, 'key-b'),
      cancel: await call(proxy, 'POST', `/v1/responses/${runId}/cancel`, 'key-b'),
      continued: await create(proxy, 'key-b', { input: 'and?', previous_response_id: id }),
      referenced: await create(proxy, 'key-b', { input: [{ type: 'item_reference', id: itemId }] }),
    };
    for (const [name, { status, body }] of Object.entries(tries)) {
      expect({ name, status }).toEqual({ name, status: 404 });
      expect(JSON.stringify(body)).not.toContain('secret');
    }
    // Exactly as for an id that does not exist.
    const unknown = await call(proxy, 'GET', '/v1/responses/resp_0123456789abcdef0123456789abcdef', 'key-b');
    expect(tries.get.body.error?.message).toBe(unknown.body.error?.message.replace('resp_0123456789abcdef0123456789abcdef', id));

    // Key A still has both: B's DELETE deleted nothing, B's cancel cancelled nothing.
    expect((await call(proxy, 'GET', `/v1/responses/${id}`, 'key-a')).status).toBe(200);
    expect((await call(proxy, 'GET', `/v1/responses/${runId}`, 'key-a')).body.status).toBe('queued');
    expect(upstream.aborted).toHaveLength(0);
    expect((await call(proxy, 'POST', `/v1/responses/${runId}/cancel`, 'key-a')).body.status).toBe('cancelled');
  });
});

describe("response ids are the proxy's own", () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    // The upstream calls every answer the same (or sends no id at all): only the text differs.
    upstream = await startMockUpstream((request) => {
      const text = askedText(request);
      return {
        json: text.includes('anonymous')
          ? completion('no id at all')
          : completion(`answer to ${text.includes('from A') ? 'A' : 'B'}`, 'chatcmpl-same'),
      };
    });
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { server: { apiKeys: ['key-a', 'key-b'] }, responses: { store: {} } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('answers the upstream names alike (or not at all) get different, unguessable ids, and none overwrites another', async () => {
    const a = await create(proxy, 'key-a', { input: 'from A', store: true });
    const b = await create(proxy, 'key-b', { input: 'from B', store: true });
    const anonymous = await create(proxy, 'key-a', { input: 'anonymous', store: true });
    const ids = [a, b, anonymous].map((answer) => String(answer.body.id));
    for (const id of ids) expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
    // Items are named after the proxy's id, not the upstream's.
    expect((a.body.output as { id: string }[])[0].id).toBe(ids[0].replace('resp_', 'msg_'));

    const text = async (id: string, key: string) => JSON.stringify((await call(proxy, 'GET', `/v1/responses/${id}`, key)).body.output);
    expect(await text(ids[0], 'key-a')).toContain('answer to A');
    expect(await text(ids[1], 'key-b')).toContain('answer to B');
    expect(await text(ids[2], 'key-a')).toContain('no id at all');
  });
});

describe('background runs are bounded, and cancelled even when the store let them go', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream((request) =>
      askedText(request).includes('slow') ? { hang: true } : { json: completion('quick', 'chatcmpl-q') },
    );
  });
  afterEach(async () => {
    await proxy.shutdown({ graceMs: 0 });
  });
  afterAll(async () => {
    await upstream.close();
  });

  test('300 background runs against a slow upstream hold at most 128 upstream requests; the rest are 429s', async () => {
    // One key may run them all: the per-process bound is the one tested here.
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: {} }, limits: { backgroundRunsPerKey: 1000 } });
    upstream.requests.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => create(proxy, 'none', { input: `slow ${i}`, background: true })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(128);
    expect(statuses.filter((status) => status === 429)).toHaveLength(172);
    const refused = answers.find((answer) => answer.status === 429)?.body.error;
    expect(refused).toMatchObject({ code: 'too_many_requests', param: 'background' });
    expect(refused?.message).toContain('limits.backgroundRuns');
    await until(() => upstream.requests.length >= 128, '128 upstream requests');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(upstream.requests.length).toBe(128);
    expect(await metric(proxy, 'dialect_proxy_background_runs')).toBe(128);
  }, 60_000);

  test('a run whose stored response was evicted is still cancelled: the upstream sees its request aborted', async () => {
    proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { responses: { store: { maxResponses: 1 } } });
    upstream.requests.length = 0;
    upstream.aborted.length = 0;
    const running = await create(proxy, 'none', { input: 'slow work', background: true });
    const id = String(running.body.id);
    await until(() => upstream.requests.length === 1, 'the run upstream');
    // One newer response pushes the run's entry out of a store that keeps one.
    expect((await create(proxy, 'none', { input: 'quick', store: true })).status).toBe(200);
    expect((await call(proxy, 'GET', `/v1/responses/${id}`, 'none')).status).toBe(404);

    const cancelled = await call(proxy, 'POST', `/v1/responses/${id}/cancel`, 'none');
    expect(cancelled).toMatchObject({ status: 200, body: { id, object: 'response', status: 'cancelled', background: true } });
    await until(() => upstream.aborted.length === 1, 'the upstream request aborted');
    expect(await metric(proxy, 'dialect_proxy_background_runs')).toBe(0);
  });
});
