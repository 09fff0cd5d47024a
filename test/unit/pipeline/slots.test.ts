/** Slots: how fan-out bounds the sub-requests running at once. */
import { Slots } from '../../../src/pipeline/plan/emulate/slots.js';

describe('Slots', () => {
  test('grants up to its size at once; the rest wait in arrival order and get a slot as one is released', async () => {
    const slots = new Slots(2);
    const signal = new AbortController().signal;
    const first = await slots.acquire(signal);
    await slots.acquire(signal);
    const order: number[] = [];
    const third = slots.acquire(signal).then((release) => {
      order.push(3);
      return release;
    });
    const fourth = slots.acquire(signal).then((release) => {
      order.push(4);
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    expect(slots.inUse).toBe(2);
    first();
    first(); // a second release of the same slot frees nothing more
    await third;
    expect(order).toEqual([3]);
    (await third)();
    await fourth;
    expect(order).toEqual([3, 4]);
    expect(slots.inUse).toBe(2);
  });

  test('a waiter whose request aborts leaves the queue with its reason and takes no slot', async () => {
    const slots = new Slots(1);
    const release = await slots.acquire(new AbortController().signal);
    const abort = new AbortController();
    const waiting = slots.acquire(abort.signal);
    abort.abort(new Error('caller left'));
    await expect(waiting).rejects.toThrow('caller left');
    release();
    expect(slots.inUse).toBe(0);
    await expect(slots.acquire(abort.signal)).rejects.toThrow('caller left');
  });
});
