/** maxConcurrent and queueLimit: slots, the queue in arrival order, 429 when it is full, waiters whose caller leaves. */
import { createConcurrencyLimit } from '../../../adapters/concurrency-limit.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';

const open = () => new AbortController().signal;
/** Whether a promise has settled, after pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('createConcurrencyLimit', () => {
  test('up to `max` at once; the next waits until a slot is released', async () => {
    const limit = createConcurrencyLimit('pool', 2, 4);
    const first = await limit.acquire(open());
    await limit.acquire(open());
    expect(limit.inFlight).toBe(2);
    const third = limit.acquire(open());
    expect(await settled(third)).toBe(false);
    expect(limit.queued).toBe(1);
    first();
    expect(await settled(third)).toBe(true);
    expect(limit.inFlight).toBe(2);
    expect(limit.queued).toBe(0);
  });

  test('waiters are served in arrival order', async () => {
    const limit = createConcurrencyLimit('pool', 1, 3);
    const release = await limit.acquire(open());
    const order: string[] = [];
    const waiters = ['a', 'b', 'c'].map((name) =>
      limit.acquire(open()).then((done) => {
        order.push(name);
        return done;
      }),
    );
    release();
    (await waiters[0])();
    (await waiters[1])();
    await waiters[2];
    expect(order).toEqual(['a', 'b', 'c']);
  });

  test('a full queue: 429 backend_busy with Retry-After, naming the backend', async () => {
    const limit = createConcurrencyLimit('gpu-pool', 1, 1);
    await limit.acquire(open());
    void limit.acquire(open());
    const refused = await limit.acquire(open()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProxyError);
    expect(refused).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'backend_busy', retryAfterSeconds: 1 });
    expect((refused as ProxyError).message).toContain('"gpu-pool"');
    expect(limit.queued).toBe(1);
  });

  test('queueLimit 0: nothing waits', async () => {
    const limit = createConcurrencyLimit('pool', 1, 0);
    const release = await limit.acquire(open());
    await expect(limit.acquire(open())).rejects.toMatchObject({ status: 429, code: 'backend_busy' });
    release();
    expect(limit.inFlight).toBe(0);
    await expect(settled(limit.acquire(open()))).resolves.toBe(true);
  });

  test("a waiter whose caller leaves is taken out of the queue at once, with its signal's reason, and never gets a slot", async () => {
    const limit = createConcurrencyLimit('pool', 1, 1);
    const release = await limit.acquire(open());
    const caller = new AbortController();
    const leaving = limit.acquire(caller.signal);
    const reason = new Error('client gone');
    caller.abort(reason);
    await expect(leaving).rejects.toBe(reason);
    expect(limit.queued).toBe(0);
    // Its place in the queue is free again, and the released slot goes to the next waiter, not to it.
    const next = limit.acquire(open());
    release();
    expect(await settled(next)).toBe(true);
    expect(limit.inFlight).toBe(1);
  });

  test('an already aborted signal takes neither a slot nor a place in the queue', async () => {
    const limit = createConcurrencyLimit('pool', 1, 1);
    const caller = new AbortController();
    caller.abort(new Error('gone'));
    await expect(limit.acquire(caller.signal)).rejects.toThrow('gone');
    expect(limit.inFlight).toBe(0);
    expect(limit.queued).toBe(0);
  });

  test('a release called twice frees one slot', async () => {
    const limit = createConcurrencyLimit('pool', 1, 2);
    const release = await limit.acquire(open());
    const a = limit.acquire(open());
    const b = limit.acquire(open());
    release();
    release();
    expect(await settled(a)).toBe(true);
    expect(await settled(b)).toBe(false);
    expect(limit.inFlight).toBe(1);
    expect(limit.queued).toBe(1);
  });

  test('an abort after the slot was granted changes nothing: the holder releases it', async () => {
    const limit = createConcurrencyLimit('pool', 1, 1);
    const first = await limit.acquire(open());
    const caller = new AbortController();
    const waiting = limit.acquire(caller.signal);
    first();
    const release = await waiting;
    caller.abort();
    expect(limit.inFlight).toBe(1);
    release();
    expect(limit.inFlight).toBe(0);
  });
});
