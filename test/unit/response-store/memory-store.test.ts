import { MemoryResponseStore } from '../../../src/response-store/memory-store.js';

const entry = (id: string, text = 'Hi') => ({ response: { id, object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text }] }] }, input: [{ role: 'user', content: text }] });

describe('the in-memory response store', () => {
  test('keeps and returns a copy: a caller that changes what it got changes nothing stored', async () => {
    const store = new MemoryResponseStore({ maxResponses: 10, maxAgeSeconds: 60 });
    await store.put(entry('resp_1'));
    const got = await store.get('resp_1');
    expect(got).toEqual(entry('resp_1'));
    (got?.input as unknown[]).push('more');
    expect((await store.get('resp_1'))?.input).toHaveLength(1);
  });

  test('holds at most maxResponses: the oldest goes first', async () => {
    const store = new MemoryResponseStore({ maxResponses: 2, maxAgeSeconds: 60 });
    for (const id of ['resp_1', 'resp_2', 'resp_3']) await store.put(entry(id));
    expect(store.size).toBe(2);
    expect(await store.get('resp_1')).toBeUndefined();
    expect(await store.get('resp_3')).toBeDefined();
  });

  test('forgets a response older than maxAgeSeconds, and sweeps expired ones as new ones arrive', async () => {
    let now = 0;
    const store = new MemoryResponseStore({ maxResponses: 100, maxAgeSeconds: 10 }, () => now);
    await store.put(entry('resp_old'));
    now = 5_000;
    await store.put(entry('resp_mid'));
    now = 10_000;
    expect(await store.get('resp_old')).toBeUndefined();
    expect(await store.get('resp_mid')).toBeDefined();
    now = 16_000;
    await store.put(entry('resp_new'));
    expect(store.size).toBe(1);
  });

  test('replacing an entry (a background response that finished) keeps its age', async () => {
    let now = 0;
    const store = new MemoryResponseStore({ maxResponses: 100, maxAgeSeconds: 10 }, () => now);
    await store.put(entry('resp_1', 'queued'));
    now = 9_000;
    await store.put(entry('resp_1', 'done'));
    expect((await store.get('resp_1'))?.input).toEqual([{ role: 'user', content: 'done' }]);
    now = 10_000;
    expect(await store.get('resp_1')).toBeUndefined();
  });

  test('delete says whether there was such a response', async () => {
    const store = new MemoryResponseStore({ maxResponses: 10, maxAgeSeconds: 60 });
    await store.put(entry('resp_1'));
    expect(await store.delete('resp_1')).toBe(true);
    expect(await store.delete('resp_1')).toBe(false);
  });
});

describe('items of stored responses', () => {
  test('are found by id, in the output or the input, until their response goes', async () => {
    const store = new MemoryResponseStore({ maxResponses: 1, maxAgeSeconds: 60 });
    await store.put({ response: { id: 'resp_1', output: [{ id: 'msg_1', type: 'message' }] }, input: [{ id: 'fc_0', type: 'function_call' }] });
    expect(await store.findItem('msg_1')).toEqual({ id: 'msg_1', type: 'message' });
    expect(await store.findItem('fc_0')).toEqual({ id: 'fc_0', type: 'function_call' });
    await store.put({ response: { id: 'resp_2', output: [] }, input: [] });
    expect(await store.findItem('msg_1')).toBeUndefined();
  });
});
