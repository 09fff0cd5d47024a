/**
 * RedisResponseStore and its runs against a real redis-server: what the Responses state counts on
 * (response-store.ts) holds here as in the memory store: owners apart, items found, a replaced entry
 * keeping its expiry, a cancel final, maxResponses counted over every writer; each key's own bounds
 * (a key past maxResponsesPerKey or maxBytesPerKey loses its own oldest, never another key's), the
 * bytes in all (maxBytes: the key holding the most loses its oldest), and the counts behind them
 * following replacements, deletes and expiry; leases lapse; a cancel
 * reaches the process holding the run; with Redis gone, each operation fails as a 503 within the
 * command timeout.
 */
import { Redis } from 'ioredis';
import type { RedisResponseStoreSettings } from '../../src/config/settings.js';
import { RedisResponseStore } from '../../src/response-store/redis-store.js';
import type { StoredResponse } from '../../src/response-store/response-store.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';

const MiB = 1024 * 1024;

const entry = (id: string, owner: string, status = 'completed'): StoredResponse => ({
  response: {
    id,
    object: 'response',
    status,
    output: [{ id: `msg_${id}`, type: 'message', content: [{ type: 'output_text', text: id }] }],
  },
  input: [{ id: `in_${id}`, role: 'user', content: 'Hi' }],
  owner,
});

describe('RedisResponseStore', () => {
  let redis: RedisServer;
  let inspect: Redis;
  const stores: RedisResponseStore[] = [];
  /** A store of its own prefix (`unit-N:`), or, given `sameAs`, another process's view of that one's. */
  const store = (overrides: Partial<RedisResponseStoreSettings> = {}, sameAs?: RedisResponseStore) => {
    const settings = {
      url: redis.url,
      keyPrefix: `unit-${stores.length}:`,
      connectTimeoutMs: 500,
      commandTimeoutMs: 500,
      runLeaseSeconds: 1,
      maxResponses: 100,
      maxAgeSeconds: 60,
      maxResponseBytes: 64 * 1024,
      ...overrides,
      ...(sameAs ? { keyPrefix: prefixes.get(sameAs) } : {}),
    };
    const made = new RedisResponseStore(settings);
    stores.push(made);
    prefixes.set(made, settings.keyPrefix);
    return made;
  };
  const prefixes = new Map<RedisResponseStore, string | undefined>();

  beforeAll(async () => {
    redis = await startRedisServer();
    inspect = new Redis(redis.url);
  });
  afterAll(async () => {
    await Promise.all(stores.map((made) => made.close()));
    inspect.disconnect();
    await redis.stop();
  });

  test("answers each owner for its own entries and items only; another's read as missing", async () => {
    const kept = store();
    await kept.put(entry('resp_1', 'alice'));
    expect(await kept.get('resp_1', 'alice')).toEqual(entry('resp_1', 'alice'));
    expect(await kept.get('resp_1', 'bob')).toBeUndefined();
    expect(await kept.findItem('msg_resp_1', 'alice')).toMatchObject({ type: 'message' });
    expect(await kept.findItem('in_resp_1', 'alice')).toMatchObject({ role: 'user' });
    expect(await kept.findItem('msg_resp_1', 'bob')).toBeUndefined();
    expect(await kept.delete('resp_1', 'bob')).toBe(false);
    expect(await kept.delete('resp_1', 'alice')).toBe(true);
    expect(await kept.get('resp_1', 'alice')).toBeUndefined();
    expect(await kept.findItem('msg_resp_1', 'alice')).toBeUndefined();
  });

  test('every key expires; a replaced entry keeps its expiry; a cancelled one stays cancelled', async () => {
    const kept = store({ maxAgeSeconds: 30 });
    await kept.put(entry('resp_2', 'alice', 'queued'));
    const keys = await inspect.keys('unit-1:*');
    expect(keys.sort()).toEqual([
      'unit-1:bytes',
      'unit-1:item:alice:in_resp_2',
      'unit-1:item:alice:msg_resp_2',
      'unit-1:owner-bytes',
      'unit-1:owner-responses',
      'unit-1:response:alice:resp_2',
      'unit-1:responses',
      'unit-1:responses-of:alice',
      'unit-1:sizes',
    ]);
    for (const key of keys) expect(await inspect.pttl(key)).toBeGreaterThan(25_000);
    await inspect.pexpire('unit-1:response:alice:resp_2', 10_000);
    await kept.put(entry('resp_2', 'alice', 'cancelled'));
    expect(await inspect.pttl('unit-1:response:alice:resp_2')).toBeLessThanOrEqual(10_000);
    expect(await kept.put(entry('resp_2', 'alice', 'completed'))).toBe(false);
    expect((await kept.get('resp_2', 'alice'))?.response.status).toBe('cancelled');
  });

  test('a write limited to unfinished entries keeps nothing over a finished or missing one', async () => {
    const kept = store();
    expect(await kept.put(entry('resp_6', 'alice', 'failed'), ['queued', 'in_progress'])).toBe(false);
    expect(await kept.get('resp_6', 'alice')).toBeUndefined();
    await kept.put(entry('resp_6', 'alice', 'in_progress'));
    expect(await kept.put(entry('resp_6', 'alice', 'failed'), ['queued', 'in_progress'])).toBe(true);
    expect(await kept.put(entry('resp_6', 'alice', 'cancelled'), ['queued', 'in_progress'])).toBe(false);
    expect((await kept.get('resp_6', 'alice'))?.response.status).toBe('failed');
  });

  test('holds at most maxResponses, counted over every process writing under the prefix: the oldest go first', async () => {
    const first = store({ maxResponses: 2 });
    const second = store({ maxResponses: 2 }, first);
    await first.put(entry('resp_a', 'alice'));
    await second.put(entry('resp_b', 'alice'));
    await first.put(entry('resp_c', 'alice'));
    expect(await second.get('resp_a', 'alice')).toBeUndefined();
    expect(await first.get('resp_b', 'alice')).toBeDefined();
    expect(await first.get('resp_c', 'alice')).toBeDefined();
    expect(await inspect.zcard(`${prefixes.get(first)}responses`)).toBe(2);
  });

  /** What the store's counts say of one prefix, read straight from Redis. */
  const counts = async (made: RedisResponseStore) => {
    const prefix = prefixes.get(made);
    const sizes = Object.values(await inspect.hgetall(`${prefix}sizes`)).map(Number);
    return {
      responses: await inspect.zcard(`${prefix}responses`),
      bytes: Number((await inspect.get(`${prefix}bytes`)) ?? 0),
      sizes: sizes.reduce((sum, size) => sum + size, 0),
      ownerBytes: Object.fromEntries(chunk(await inspect.zrange(`${prefix}owner-bytes`, '0', '-1', 'WITHSCORES'))),
      ownerResponses: Object.fromEntries(chunk(await inspect.zrange(`${prefix}owner-responses`, '0', '-1', 'WITHSCORES'))),
    };
  };
  const chunk = (flat: string[]) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], Number(flat[2 * i + 1])]);
  const bytesOf = (stored: StoredResponse) => Buffer.byteLength(JSON.stringify(stored));
  /** An entry whose input is `size` bytes of text. */
  const large = (id: string, owner: string, size: number): StoredResponse => ({ ...entry(id, owner), input: ['x'.repeat(size)] });

  test("a key past maxResponsesPerKey loses its own oldest, never another key's, over every process", async () => {
    const first = store({ maxResponses: 100, maxResponsesPerKey: 3 });
    const second = store({ maxResponses: 100, maxResponsesPerKey: 3 }, first);
    await first.put(entry('resp_bob', 'bob'));
    for (let i = 0; i < 10; i++) await (i % 2 ? first : second).put(entry(`resp_alice_${i}`, 'alice'));
    expect(await first.get('resp_bob', 'bob')).toBeDefined();
    const kept = await Promise.all(Array.from({ length: 10 }, (_, i) => second.get(`resp_alice_${i}`, 'alice')));
    expect(kept.map((found) => found !== undefined)).toEqual([...Array(7).fill(false), ...Array(3).fill(true)]);
    expect(await inspect.zcard(`${prefixes.get(first)}responses-of:alice`)).toBe(3);
    expect(await counts(first)).toMatchObject({ responses: 4, ownerResponses: { alice: 3, bob: 1 } });
  });

  test('at maxResponses in all, the key holding the most loses its oldest; keys holding less keep theirs', async () => {
    const kept = store({ maxResponses: 6, maxResponsesPerKey: 5 });
    await kept.put(entry('resp_carol', 'carol'));
    for (const id of ['resp_bob_1', 'resp_bob_2']) await kept.put(entry(id, 'bob'));
    for (let i = 0; i < 10; i++) await kept.put(entry(`resp_alice_${i}`, 'alice'));
    expect(await kept.get('resp_carol', 'carol')).toBeDefined();
    expect(await kept.get('resp_bob_1', 'bob')).toBeDefined();
    expect(await kept.get('resp_bob_2', 'bob')).toBeDefined();
    const alice = await Promise.all(Array.from({ length: 10 }, (_, i) => kept.get(`resp_alice_${i}`, 'alice')));
    expect(alice.map((found) => found !== undefined)).toEqual([...Array(7).fill(false), ...Array(3).fill(true)]);
    expect(await counts(kept)).toMatchObject({ responses: 6, ownerResponses: { alice: 3, bob: 2, carol: 1 } });
  });

  test("bytes are bounded per key and in all: ten 1 MB responses of one key keep 2 MiB of it, and another key's stays", async () => {
    const settings = { maxResponseBytes: 2 * MiB, maxBytesPerKey: 2 * MiB, maxBytes: 2.5 * MiB };
    const kept = store(settings);
    await kept.put(large('resp_bob', 'bob', 900 * 1024));
    for (let i = 0; i < 10; i++) await kept.put(large(`resp_alice_${i}`, 'alice', MiB));
    expect(await kept.get('resp_bob', 'bob')).toBeDefined();
    const alice = await Promise.all(Array.from({ length: 10 }, (_, i) => kept.get(`resp_alice_${i}`, 'alice')));
    // Two of ~1 MB each would pass 2 MiB: one is kept, the newest.
    expect(alice.map((found) => found !== undefined)).toEqual([...Array(9).fill(false), true]);
    const [alices, bobs] = [bytesOf(large('resp_alice_9', 'alice', MiB)), bytesOf(large('resp_bob', 'bob', 900 * 1024))];
    expect(await counts(kept)).toMatchObject({ bytes: alices + bobs, sizes: alices + bobs, ownerBytes: { alice: alices, bob: bobs } });
    // What Redis holds is what the counts say, give or take its own overhead: not the 10 MB put.
    const held = await Promise.all((await inspect.keys(`${prefixes.get(kept)}response:*`)).map((key) => inspect.memory('USAGE', key)));
    expect(held.reduce((sum: number, size) => sum + Number(size), 0)).toBeLessThan(2.5 * MiB);

    // In all (maxBytes), from another process: a third key's response passes 2.5 MiB, and the key
    // holding the most bytes (alice) loses its oldest; bob, holding less, and carol keep theirs.
    await store(settings, kept).put(large('resp_carol', 'carol', 700 * 1024));
    expect(await kept.get('resp_alice_9', 'alice')).toBeUndefined();
    expect(await kept.get('resp_bob', 'bob')).toBeDefined();
    expect(await kept.get('resp_carol', 'carol')).toBeDefined();
    const after = await counts(kept);
    expect(after.bytes).toBeLessThanOrEqual(2.5 * MiB);
    expect(after.bytes).toBe(after.sizes);
    expect(Object.keys(after.ownerBytes).sort()).toEqual(['bob', 'carol']);
  });

  test('the counts follow a replaced entry, a delete and expiry', async () => {
    const kept = store({ maxAgeSeconds: 1 });
    const queued = entry('resp_bg', 'alice', 'queued');
    const done = large('resp_bg', 'alice', 5000);
    await kept.put(queued);
    expect(await counts(kept)).toMatchObject({ responses: 1, bytes: bytesOf(queued), ownerResponses: { alice: 1 } });
    await kept.put(done);
    expect(await counts(kept)).toMatchObject({ responses: 1, bytes: bytesOf(done), ownerBytes: { alice: bytesOf(done) } });
    await kept.put(entry('resp_gone', 'alice'));
    expect(await kept.delete('resp_gone', 'alice')).toBe(true);
    expect(await counts(kept)).toMatchObject({ responses: 1, bytes: bytesOf(done), ownerResponses: { alice: 1 } });
    // Once alice's response has expired, the next put (anyone's) forgets it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await kept.put(entry('resp_new', 'bob'));
    expect(await counts(kept)).toEqual({
      responses: 1,
      bytes: bytesOf(entry('resp_new', 'bob')),
      sizes: bytesOf(entry('resp_new', 'bob')),
      ownerBytes: { bob: bytesOf(entry('resp_new', 'bob')) },
      ownerResponses: { bob: 1 },
    });
  });

  test("a run's lease is renewed while held and lapses once not; a cancel reaches the process holding it", async () => {
    const running = store({ runLeaseSeconds: 1 });
    const elsewhere = store({ runLeaseSeconds: 1 }, running);
    let cancelled = 0;
    await running.runs.hold('resp_run', 'alice', () => cancelled++);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await elsewhere.runs.isRunning('resp_run', 'alice')).toBe(true);
    expect(await elsewhere.runs.isRunning('resp_run', 'bob')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200)); // both subscribed by now
    await elsewhere.runs.requestCancel('resp_run', 'bob');
    await elsewhere.runs.requestCancel('resp_run', 'alice');
    for (let i = 0; i < 50 && cancelled === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toBe(1);
    running.runs.release('resp_run', 'alice');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await elsewhere.runs.isRunning('resp_run', 'alice')).toBe(false);
  });

  test('a cancel the running process missed on the channel is caught at its next renewal, from the stored status', async () => {
    const running = store({ runLeaseSeconds: 1 });
    let cancelled = 0;
    await running.put(entry('resp_missed', 'alice', 'queued'));
    await running.runs.hold('resp_missed', 'alice', () => cancelled++);
    // Stored as cancelled without a word on the channel (as if the message was lost).
    await running.put(entry('resp_missed', 'alice', 'cancelled'));
    for (let i = 0; i < 50 && cancelled === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toBeGreaterThan(0);
    running.runs.release('resp_missed', 'alice');
  });

  test('with Redis frozen, an operation times out as a 503, health says degraded, and a store-bound check fails too until it answers', async () => {
    const kept = store({ commandTimeoutMs: 300 });
    await kept.put(entry('resp_7', 'alice'));
    redis.pause();
    try {
      await expect(kept.get('resp_7', 'alice')).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
      expect(kept.health()).toBe('degraded');
      const started = Date.now();
      await expect(kept.checkAvailable()).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      redis.resume();
    }
    await kept.checkAvailable();
    expect(kept.health()).toBe('ok');
    expect(await kept.get('resp_7', 'alice')).toBeDefined();
  });

  test('with Redis gone, every operation is a 503 store_unavailable within the command timeout, and health says degraded', async () => {
    const kept = store({ commandTimeoutMs: 300 });
    await kept.put(entry('resp_3', 'alice'));
    expect(kept.health()).toBe('ok');
    await redis.stop();
    try {
      for (const operation of [
        () => kept.get('resp_3', 'alice'),
        () => kept.put(entry('resp_4', 'alice')),
        () => kept.findItem('msg_resp_3', 'alice'),
        () => kept.delete('resp_3', 'alice'),
        () => kept.checkAvailable(),
      ]) {
        const started = Date.now();
        await expect(operation()).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
        expect(Date.now() - started).toBeLessThan(1000);
      }
      expect(kept.health()).toBe('degraded');
    } finally {
      await redis.start();
    }
    for (let i = 0; i < 100 && kept.health() !== 'ok'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await kept.put(entry('resp_5', 'alice'));
    expect(await kept.get('resp_5', 'alice')).toBeDefined();
  });
});
