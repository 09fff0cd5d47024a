import { jest } from '@jest/globals';
import { Outbox } from '../../../adapters/llama-cpp/outbox.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Outbox', () => {
  it('sends what was pushed in one turn as one batch, after the turn', async () => {
    const posts: number[][] = [];
    const outbox = new Outbox<number>((batch) => posts.push(batch), 0);
    outbox.push(1);
    outbox.push(2);
    expect(posts).toEqual([]);
    await turn();
    expect(posts).toEqual([[1, 2]]);
  });

  it('holds pushes that follow a post until the window has passed', () => {
    // On the fake clock: a window measured in wall time would be a timed test on a loaded machine.
    jest.useFakeTimers();
    try {
      const posts: number[][] = [];
      const outbox = new Outbox<number>((batch) => posts.push(batch), 40);
      outbox.push(1);
      jest.advanceTimersByTime(0); // the turn ends
      expect(posts).toEqual([[1]]);
      outbox.push(2);
      jest.advanceTimersByTime(0);
      outbox.push(3);
      jest.advanceTimersByTime(10);
      expect(posts).toEqual([[1]]);
      jest.advanceTimersByTime(30);
      expect(posts).toEqual([[1], [2, 3]]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('send posts at once, after what is queued, and cancels the pending flush', async () => {
    const posts: number[][] = [];
    const outbox = new Outbox<number>((batch) => posts.push(batch), 40);
    outbox.push(1);
    await turn();
    outbox.push(2);
    outbox.send(3);
    expect(posts).toEqual([[1], [2, 3]]);
    await sleep(60);
    expect(posts).toEqual([[1], [2, 3]]);
  });
});
