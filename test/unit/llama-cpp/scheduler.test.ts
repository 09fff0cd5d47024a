import { QueueFullError, SequencePool } from '../../../adapters/llama-cpp/scheduler.js';

describe('SequencePool', () => {
  it('hands out free sequences, then queues in order, then refuses past the limit', async () => {
    const pool = new SequencePool(['a', 'b'], 2);
    expect(await pool.acquire([])).toBe('a');
    expect(await pool.acquire([])).toBe('b');
    const third = pool.acquire([]);
    const fourth = pool.acquire([]);
    await expect(pool.acquire([])).rejects.toBeInstanceOf(QueueFullError);
    expect(pool.queued).toBe(2);
    pool.release('b');
    expect(await third).toBe('b');
    pool.release('a');
    expect(await fourth).toBe('a');
  });

  it('gives a retry estimate of at least one second', async () => {
    const pool = new SequencePool(['a'], 0);
    await pool.acquire([]);
    const refused = await pool.acquire([]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueueFullError);
    expect((refused as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('drops a waiter whose signal aborts', async () => {
    const pool = new SequencePool(['a'], 4);
    await pool.acquire([]);
    const controller = new AbortController();
    const waiting = pool.acquire([], controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.queued).toBe(0);
    pool.release('a');
    expect(pool.idle).toBe(1);
  });

  it('prefers the free sequence that already holds the longest prefix of the prompt', async () => {
    const cached: Record<string, number[]> = { a: [1, 2], b: [1, 2, 3, 4] };
    const shared = (item: string, prompt: readonly number[]) => {
      let n = 0;
      while (n < prompt.length && cached[item][n] === prompt[n]) n++;
      return n;
    };
    const pool = new SequencePool(['a', 'b'], 1, shared);
    expect(await pool.acquire([1, 2, 3, 4, 5])).toBe('b');
  });
});
