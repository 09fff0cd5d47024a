import { MemoryResponseStore, type MemoryStoreSettings } from '../../../src/response-store/memory-store.js';
import { ResponseTooLarge, type StoredResponse } from '../../../src/response-store/response-store.js';

const OWNER = 'owner-a';
const entry = (id: string, text = 'Hi', owner = OWNER): StoredResponse => ({
  response: { id, object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text }] }] },
  input: [{ role: 'user', content: text }],
  owner,
});
const settings = (overrides: Partial<MemoryStoreSettings> = {}): MemoryStoreSettings => ({
  maxResponses: 10,
  maxAgeSeconds: 60,
  maxBytes: 1024 * 1024,
  maxResponseBytes: 64 * 1024,
  ...overrides,
});
const bytesOf = (stored: StoredResponse) => Buffer.byteLength(JSON.stringify(stored));

describe('the in-memory response store', () => {
  test('keeps and returns a copy: a caller that changes what it got changes nothing stored', async () => {
    const store = new MemoryResponseStore(settings());
    await store.put(entry('resp_1'));
    const got = await store.get('resp_1', OWNER);
    expect(got).toEqual(entry('resp_1'));
    (got?.input as unknown[]).push('more');
    expect((await store.get('resp_1', OWNER))?.input).toHaveLength(1);
  });

  test('holds at most maxResponses: the oldest goes first', async () => {
    const store = new MemoryResponseStore(settings({ maxResponses: 2 }));
    for (const id of ['resp_1', 'resp_2', 'resp_3']) await store.put(entry(id));
    expect(store.size).toBe(2);
    expect(await store.get('resp_1', OWNER)).toBeUndefined();
    expect(await store.get('resp_3', OWNER)).toBeDefined();
  });

  test('forgets a response older than maxAgeSeconds, and sweeps expired ones as new ones arrive', async () => {
    let now = 0;
    const store = new MemoryResponseStore(settings({ maxResponses: 100, maxAgeSeconds: 10 }), () => now);
    await store.put(entry('resp_old'));
    now = 5_000;
    await store.put(entry('resp_mid'));
    now = 10_000;
    expect(await store.get('resp_old', OWNER)).toBeUndefined();
    expect(await store.get('resp_mid', OWNER)).toBeDefined();
    now = 16_000;
    await store.put(entry('resp_new'));
    expect(store.size).toBe(1);
    expect(store.bytes).toBe(bytesOf(entry('resp_new')));
  });

  test('replacing an entry (a background response that finished) keeps its age, and counts its new size', async () => {
    let now = 0;
    const store = new MemoryResponseStore(settings({ maxResponses: 100, maxAgeSeconds: 10 }), () => now);
    await store.put(entry('resp_1', 'queued'));
    now = 9_000;
    await store.put(entry('resp_1', 'done, at last'));
    expect((await store.get('resp_1', OWNER))?.input).toEqual([{ role: 'user', content: 'done, at last' }]);
    expect(store.bytes).toBe(bytesOf(entry('resp_1', 'done, at last')));
    now = 10_000;
    expect(await store.get('resp_1', OWNER)).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  test('delete says whether there was such a response', async () => {
    const store = new MemoryResponseStore(settings());
    await store.put(entry('resp_1'));
    expect(await store.delete('resp_1', OWNER)).toBe(true);
    expect(await store.delete('resp_1', OWNER)).toBe(false);
    expect(store.bytes).toBe(0);
  });
});

describe('the store counts bytes', () => {
  test('each entry is its JSON, measured at put; the oldest go while the total is over maxBytes', async () => {
    const one = bytesOf(entry('resp_1', 'x'.repeat(1000)));
    const store = new MemoryResponseStore(settings({ maxBytes: one * 2 + 10 }));
    for (const id of ['resp_1', 'resp_2', 'resp_3']) await store.put(entry(id, 'x'.repeat(1000)));
    expect(store.bytes).toBe(one * 2);
    expect(store.usage()).toEqual({ responses: 2, bytes: one * 2 });
    expect(await store.get('resp_1', OWNER)).toBeUndefined();
    expect(await store.get('resp_2', OWNER)).toBeDefined();
  });

  test('an entry over maxResponseBytes is refused, and nothing of it is kept', async () => {
    const store = new MemoryResponseStore(settings({ maxResponseBytes: 2048 }));
    await store.put(entry('resp_small'));
    const refused = await store.put(entry('resp_big', 'x'.repeat(4096))).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ResponseTooLarge);
    expect(String(refused)).toMatch(/responses\.store\.maxResponseBytes/);
    expect(await store.get('resp_big', OWNER)).toBeUndefined();
    expect(store.usage()).toEqual({ responses: 1, bytes: bytesOf(entry('resp_small')) });
  });

  test('a replacement over maxResponseBytes leaves the entry as it was', async () => {
    const store = new MemoryResponseStore(settings({ maxResponseBytes: 2048 }));
    await store.put(entry('resp_1', 'queued'));
    await expect(store.put(entry('resp_1', 'x'.repeat(4096)))).rejects.toBeInstanceOf(ResponseTooLarge);
    expect((await store.get('resp_1', OWNER))?.input).toEqual([{ role: 'user', content: 'queued' }]);
  });
});

describe('each entry belongs to its owner', () => {
  test('another owner cannot read, delete or replace it: to them it does not exist', async () => {
    const store = new MemoryResponseStore(settings());
    await store.put(entry('resp_1', 'mine'));
    expect(await store.get('resp_1', 'owner-b')).toBeUndefined();
    expect(await store.delete('resp_1', 'owner-b')).toBe(false);
    await expect(store.put(entry('resp_1', 'theirs', 'owner-b'))).rejects.toThrow(/another owner/);
    expect((await store.get('resp_1', OWNER))?.input).toEqual([{ role: 'user', content: 'mine' }]);
  });

  test("items are found per owner: the same item id under two owners points at each one's own", async () => {
    const store = new MemoryResponseStore(settings());
    await store.put({
      response: { id: 'resp_a', output: [] },
      input: [{ id: 'msg_same', type: 'message', content: 'a' }],
      owner: 'owner-a',
    });
    await store.put({
      response: { id: 'resp_b', output: [] },
      input: [{ id: 'msg_same', type: 'message', content: 'b' }],
      owner: 'owner-b',
    });
    expect(await store.findItem('msg_same', 'owner-a')).toMatchObject({ content: 'a' });
    expect(await store.findItem('msg_same', 'owner-b')).toMatchObject({ content: 'b' });
    expect(await store.findItem('msg_same', 'owner-c')).toBeUndefined();
  });
});

describe('items of stored responses', () => {
  test('are found by id, in the output or the input, until their response goes', async () => {
    const store = new MemoryResponseStore(settings({ maxResponses: 1 }));
    await store.put({
      response: { id: 'resp_1', output: [{ id: 'msg_1', type: 'message' }] },
      input: [{ id: 'fc_0', type: 'function_call' }],
      owner: OWNER,
    });
    expect(await store.findItem('msg_1', OWNER)).toEqual({ id: 'msg_1', type: 'message' });
    expect(await store.findItem('fc_0', OWNER)).toEqual({ id: 'fc_0', type: 'function_call' });
    await store.put({ response: { id: 'resp_2', output: [] }, input: [], owner: OWNER });
    expect(await store.findItem('msg_1', OWNER)).toBeUndefined();
  });
});

describe('a cancelled response', () => {
  test('stays cancelled: the run it stopped may end after the cancel and must not replace it', async () => {
    const store = new MemoryResponseStore(settings());
    const queued = entry('resp_run');
    await store.put({ ...queued, response: { ...queued.response, status: 'queued' } });
    await store.put({ ...queued, response: { ...queued.response, status: 'cancelled' } });
    await store.put({ ...queued, response: { ...queued.response, status: 'completed' } });
    expect((await store.get('resp_run', OWNER))?.response.status).toBe('cancelled');
  });

  test('a write limited to unfinished entries keeps nothing over a finished or missing one', async () => {
    const store = new MemoryResponseStore(settings());
    const run = (status: string) => ({ ...entry('resp_run'), response: { ...entry('resp_run').response, status } });
    expect(await store.put(run('failed'), ['queued'])).toBe(false);
    expect(await store.get('resp_run', OWNER)).toBeUndefined();
    await store.put(run('queued'));
    expect(await store.put(run('failed'), ['queued'])).toBe(true);
    expect(await store.put(run('cancelled'), ['queued'])).toBe(false);
    expect((await store.get('resp_run', OWNER))?.response.status).toBe('failed');
  });
});
