import { ProxyError } from '../../../../src/errors/proxy-error.js';
import type { StateServices } from '../../../../src/dialects/dialect-state.js';
import { keepAnswer, resolveResponseState } from '../../../../src/dialects/openai-responses/state/response-state.js';
import { MemoryResponseStore } from '../../../../src/response-store/memory-store.js';
import type { ResponseStore } from '../../../../src/response-store/response-store.js';

const failing: ResponseStore = {
  kind: 'broken',
  get: async () => undefined,
  put: async () => {
    throw new Error('disk full');
  },
  findItem: async () => undefined,
  delete: async () => false,
};

const settings = { storeByDefault: true, maxResponseBytes: 4096, maxContinuationDepth: 3 };
const memoryStore = () => new MemoryResponseStore({ maxResponses: 100, maxAgeSeconds: 60, maxBytes: 1024 * 1024, maxResponseBytes: 4096 });
const context = (store: ResponseStore, owner = 'a'): Pick<StateServices, 'store' | 'settings' | 'owner'> => ({ store, settings, owner });

/** One stored turn: `text` asked, `answer` answered, continuing `previous` when given. */
async function turn(store: ResponseStore, text: string, answer: string, previous?: string, owner = 'a'): Promise<string> {
  const state = await resolveResponseState(
    { model: 'm', input: text, store: true, ...(previous ? { previous_response_id: previous } : {}) },
    context(store, owner),
  );
  await keepAnswer({ id: state.responseId, output: [{ id: `msg_${answer}`, type: 'message', role: 'assistant', content: answer }] }, state);
  return state.responseId;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ProxyError,
  );

describe('keeping a Responses answer', () => {
  test('a store that fails does not cost the caller the answer: store false, and the failure is told', async () => {
    const state = await resolveResponseState({ model: 'm', input: 'Hi', store: true }, context(failing));
    const failures: unknown[] = [];
    const answer = await keepAnswer({ id: state.responseId, output: [], store: true }, state, (error) => failures.push(error));
    expect(answer).toMatchObject({ id: state.responseId, store: false });
    expect(String(failures[0])).toMatch(/disk full/);
  });

  test('a store that works keeps the answer with its own input and its owner', async () => {
    const store = memoryStore();
    const state = await resolveResponseState({ model: 'm', input: 'Hi', store: true }, context(store));
    await keepAnswer({ id: state.responseId, output: [] }, state);
    expect(await store.get(state.responseId, 'a')).toEqual({
      response: { id: state.responseId, output: [] },
      input: [{ role: 'user', content: 'Hi' }],
      owner: 'a',
    });
  });

  test('every request gets its own random id: resp_ and 32 hex digits', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await resolveResponseState({ model: 'm', input: 'Hi' }, { owner: '' })).responseId),
    );
    for (const id of ids) expect(id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(3);
  });

  test('an answer too large to keep goes out with store: false (store was only the default)', async () => {
    const store = memoryStore();
    const state = await resolveResponseState({ model: 'm', input: 'Hi' }, context(store));
    const failures: unknown[] = [];
    const answer = await keepAnswer({ id: state.responseId, output: [{ type: 'message', content: 'x'.repeat(8192) }] }, state, (error) =>
      failures.push(error),
    );
    expect(answer.store).toBe(false);
    expect(String(failures[0])).toMatch(/maxResponseBytes/);
    expect(await store.get(state.responseId, 'a')).toBeUndefined();
  });

  test('store: true with an input the store could never keep is refused up front, naming the limit', async () => {
    const error = await failureOf(resolveResponseState({ model: 'm', input: 'x'.repeat(8192), store: true }, context(memoryStore())));
    expect(error).toMatchObject({ status: 400, code: 'limit_exceeded', param: 'store' });
    expect(error?.message).toMatch(/\(responses\.store\.maxResponseBytes\)\.$/);
  });

  test('by default, the same input is answered and simply not kept', async () => {
    const state = await resolveResponseState({ model: 'm', input: 'x'.repeat(8192) }, context(memoryStore()));
    expect(state.store).toBeDefined();
  });
});

describe('continuing a stored conversation', () => {
  test('each response keeps only its own turn; the chain is walked back to rebuild the conversation', async () => {
    const store = memoryStore();
    const first = await turn(store, 'one', 'uno');
    const second = await turn(store, 'two', 'dos', first);
    expect(await store.get(second, 'a')).toMatchObject({ input: [{ role: 'user', content: 'two' }], previousResponseId: first });
    const state = await resolveResponseState({ model: 'm', input: 'three', previous_response_id: second }, context(store));
    expect((state.body as { input: unknown[] }).input).toEqual([
      { role: 'user', content: 'one' },
      expect.objectContaining({ content: 'uno' }),
      { role: 'user', content: 'two' },
      expect.objectContaining({ content: 'dos' }),
      { role: 'user', content: 'three' },
    ]);
    expect(state.input).toEqual([{ role: 'user', content: 'three' }]);
  });

  test('at most maxContinuationDepth responses: a longer chain is a 400 naming the limit', async () => {
    const store = memoryStore();
    let last = await turn(store, 't0', 'a0');
    for (let i = 1; i < 3; i++) last = await turn(store, `t${i}`, `a${i}`, last);
    const tooDeep = await turn(store, 't3', 'a3', last); // walked 3: allowed
    const error = await failureOf(resolveResponseState({ model: 'm', input: 'more', previous_response_id: tooDeep }, context(store)));
    expect(error).toMatchObject({ status: 400, code: 'limit_exceeded', param: 'previous_response_id' });
    expect(error?.message).toMatch(/\(responses\.store\.maxContinuationDepth\)\.$/);
  });

  test('an earlier response that is gone is a 404 that names it', async () => {
    const store = memoryStore();
    const first = await turn(store, 'one', 'uno');
    const second = await turn(store, 'two', 'dos', first);
    await store.delete(first, 'a');
    const error = await failureOf(resolveResponseState({ model: 'm', input: 'three', previous_response_id: second }, context(store)));
    expect(error).toMatchObject({ status: 404, code: 'previous_response_not_found', param: 'previous_response_id' });
    expect(error?.message).toContain(`'${first}'`);
    expect(error?.message).toMatch(/no longer stored/);
  });

  test("another owner's response reads as one that does not exist, for previous_response_id and item_reference", async () => {
    const store = memoryStore();
    const mine = await turn(store, 'secret', 'kept');
    const continued = await failureOf(resolveResponseState({ model: 'm', input: 'Hi', previous_response_id: mine }, context(store, 'b')));
    expect(continued).toMatchObject({ status: 404, code: 'previous_response_not_found' });
    const referenced = await failureOf(
      resolveResponseState({ model: 'm', input: [{ type: 'item_reference', id: 'msg_kept' }] }, context(store, 'b')),
    );
    expect(referenced).toMatchObject({ status: 404, code: 'item_not_found', param: 'input[0]' });
    const own = await resolveResponseState({ model: 'm', input: [{ type: 'item_reference', id: 'msg_kept' }] }, context(store, 'a'));
    expect(own.input).toEqual([expect.objectContaining({ id: 'msg_kept', content: 'kept' })]);
  });
});
