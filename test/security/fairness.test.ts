/**
 * Attack: one API key crowds out the others in what the process shares.
 * - Stored responses (`responses.store`): the store's bounds were one pool,
 *   the oldest going first whoever made it, so key A's many `store: true`
 *   responses evicted key B's (B's GET and `previous_response_id` then 404).
 *   Now each key has its own bounds (`maxResponsesPerKey`, `maxBytesPerKey`:
 *   past them a key loses its own oldest), and at the store's bounds in all the
 *   key holding the most loses its oldest, never a key holding less.
 * - Fan-out slots: key A's four 16-prompt batches to a stalled upstream held
 *   all 64 of `limits.fanOutPerProcess`, and key B's 2-prompt batch waited
 *   until A's ended (forever, upstream stalled). Now one key holds at most
 *   `limits.fanOutPerKey` (32), and B's batch runs beside A's.
 * (Redis: the same store bounds, in test/services/redis-response-store.test.ts.)
 */
import type { RunningServer } from '../../src/http/server.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const completion = (content: string) => ({
  object: 'chat.completion',
  created: 1700000000,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});

/** The text of the user messages of an upstream request: which test request it is. */
const askedText = (request: RecordedRequest) => JSON.stringify((request.body as { messages?: unknown }).messages ?? '');

const KEYS = ['key-a', 'key-b', 'key-c'];
const KiB = 1024;
const MiB = 1024 * KiB;

async function call(proxy: RunningServer, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${proxy.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Stores `count` responses for `key`, one after another; their ids, oldest first. */
async function storeMany(proxy: RunningServer, key: string, count: number, input = 'hello'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await call(proxy, 'POST', '/v1/responses', key, { model: 'm', input, store: true });
    expect(answer.status).toBe(200);
    ids.push(String(answer.body.id));
  }
  return ids;
}

const statusOf = async (proxy: RunningServer, id: string, key: string) => (await call(proxy, 'GET', `/v1/responses/${id}`, key)).status;

async function metric(proxy: RunningServer, name: string): Promise<number> {
  const text = await (await fetch(`${proxy.url}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe("one key's stored responses never evict another's (memory store)", () => {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream({ json: completion('ok') });
  });
  afterAll(() => upstream.close());
  const proxies: RunningServer[] = [];
  const proxyWith = async (store: Record<string, unknown>) => {
    const proxy = await startProxyFor(upstream.url, { kind: 'openai' }, { server: { apiKeys: KEYS }, responses: { store } });
    proxies.push(proxy);
    return proxy;
  };
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
    upstream.requests.length = 0;
  });

  test("100 of key A's responses leave key B's readable and continuable; A keeps its newest maxResponsesPerKey (by default a quarter of maxResponses)", async () => {
    const proxy = await proxyWith({ maxResponses: 40 });
    const [kept] = await storeMany(proxy, 'key-b', 1);
    const flood = await storeMany(proxy, 'key-a', 100);

    expect(await statusOf(proxy, kept, 'key-b')).toBe(200);
    const continued = await call(proxy, 'POST', '/v1/responses', 'key-b', { model: 'm', input: 'and then?', previous_response_id: kept });
    expect(continued.status).toBe(200);
    // A lost its own oldest: 40 / 4 = 10 of its responses are kept.
    const statuses = await Promise.all(flood.map((id) => statusOf(proxy, id, 'key-a')));
    expect(statuses.slice(0, 90)).toEqual(Array(90).fill(404));
    expect(statuses.slice(90)).toEqual(Array(10).fill(200));
  });

  test('at maxResponses in all, the key holding the most loses its oldest; keys holding less keep theirs', async () => {
    const proxy = await proxyWith({ maxResponses: 10, maxResponsesPerKey: 8 });
    const c = await storeMany(proxy, 'key-c', 2);
    const b = await storeMany(proxy, 'key-b', 4);
    const a = await storeMany(proxy, 'key-a', 20);

    for (const id of c) expect(await statusOf(proxy, id, 'key-c')).toBe(200);
    for (const id of b) expect(await statusOf(proxy, id, 'key-b')).toBe(200);
    const statuses = await Promise.all(a.map((id) => statusOf(proxy, id, 'key-a')));
    expect(statuses).toEqual([...Array(16).fill(404), ...Array(4).fill(200)]);
    expect(await metric(proxy, 'dialect_proxy_response_store_responses')).toBe(10);
  });

  test("a key's bytes are bounded by maxBytesPerKey (a quarter of maxBytes): 30 responses of 100 KB from key A keep A's under 512 KiB, and B's stays", async () => {
    const proxy = await proxyWith({ maxBytes: 2 * MiB, maxResponseBytes: 256 * KiB });
    const [kept] = await storeMany(proxy, 'key-b', 1);
    const flood = await storeMany(proxy, 'key-a', 30, 'x'.repeat(100 * KiB));

    expect(await statusOf(proxy, kept, 'key-b')).toBe(200);
    const statuses = await Promise.all(flood.map((id) => statusOf(proxy, id, 'key-a')));
    const keptOfA = statuses.filter((status) => status === 200).length;
    // ~101 KB each: 5 fit in 512 KiB, and they are A's newest.
    expect(keptOfA).toBeGreaterThanOrEqual(4);
    expect(keptOfA).toBeLessThanOrEqual(5);
    expect(statuses.slice(-keptOfA)).toEqual(Array(keptOfA).fill(200));
    expect(await metric(proxy, 'dialect_proxy_response_store_bytes')).toBeLessThanOrEqual(512 * KiB + 4 * KiB);
  });

  test('the per-key bounds default to a quarter of the store between keys, and to all of it for one owner; a share smaller than one response is refused', () => {
    const load = (apiKeys: string[], store: Record<string, unknown> = {}) =>
      loadConfig({
        server: { apiKeys },
        responses: { store },
        backends: { r: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } },
        routes: [{ model: '*', backend: 'r' }],
      }).responses.store;
    expect(load(['a', 'b'])).toMatchObject({ maxResponsesPerKey: 2500, maxBytesPerKey: 64 * MiB });
    expect(load([])).toMatchObject({ maxResponsesPerKey: 10_000, maxBytesPerKey: 256 * MiB });
    expect(() => load(['a', 'b'], { maxBytesPerKey: 1 * MiB })).toThrow(
      /responses\.store\.maxBytesPerKey: must be at least maxResponseBytes/,
    );
  });
});

describe('one key cannot hold every fan-out slot of the process', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    // Key A's prompts stall upstream (no answer, ever); key B's are answered at once.
    upstream = await startMockUpstream((request) => (askedText(request).includes('stall') ? { hang: true } : { json: completion('ok') }));
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] }, { server: { apiKeys: KEYS } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const batch = (key: string, prompts: string[], signal: AbortSignal) =>
    fetch(`${proxy.url}/v1/completions`, {
      method: 'POST',
      signal,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', prompt: prompts, max_tokens: 1 }),
    });

  test("key A's four 16-prompt batches to a stalled upstream hold 32 slots, not 64; key B's 2-prompt batch is answered within 2 s meanwhile", async () => {
    const stalled = () => upstream.requests.filter((request) => askedText(request).includes('stall')).length;
    const leave = new AbortController();
    const a = Array.from({ length: 4 }, () => batch('key-a', Array(16).fill('stall'), leave.signal).catch(() => 'left'));
    try {
      for (let i = 0; i < 200 && stalled() < 32; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // A's share (limits.fanOutPerKey): its other 32 sub-requests wait for it, holding no slot of the process.
      expect(stalled()).toBe(32);

      const started = Date.now();
      const b = await batch('key-b', ['one', 'two'], AbortSignal.timeout(5000));
      expect(b.status).toBe(200);
      expect(((await b.json()) as { choices: unknown[] }).choices).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(stalled()).toBe(32);
    } finally {
      leave.abort();
      await Promise.all(a);
    }
  });
});
