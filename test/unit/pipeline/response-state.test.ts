import { keepAnswer, resolveResponseState } from '../../../src/pipeline/response-state.js';
import { MemoryResponseStore } from '../../../src/response-store/memory-store.js';
import type { ResponseStore } from '../../../src/response-store/response-store.js';

const failing: ResponseStore = {
  kind: 'broken',
  get: async () => undefined,
  put: async () => { throw new Error('disk full'); },
  findItem: async () => undefined,
  delete: async () => false,
};

describe('keeping a Responses answer', () => {
  test('a store that fails does not cost the caller the answer: store false, and the failure is told', async () => {
    const state = await resolveResponseState({ model: 'm', input: 'Hi', store: true }, failing);
    const failures: unknown[] = [];
    const answer = await keepAnswer({ id: 'resp_1', output: [], store: true }, state, (error) => failures.push(error));
    expect(answer).toMatchObject({ id: 'resp_1', store: false });
    expect(String(failures[0])).toMatch(/disk full/);
  });

  test('a store that works keeps the answer with the input it answered', async () => {
    const store = new MemoryResponseStore({ maxResponses: 10, maxAgeSeconds: 60 });
    const state = await resolveResponseState({ model: 'm', input: 'Hi', store: true }, store);
    await keepAnswer({ id: 'resp_2', output: [] }, state);
    expect(await store.get('resp_2')).toEqual({ response: { id: 'resp_2', output: [] }, input: [{ role: 'user', content: 'Hi' }] });
  });
});
