/**
 * Hands out the context's sequences: a request takes a free one (preferring the
 * one whose cached tokens share the longest prefix with its prompt) or waits in
 * a bounded FIFO queue; past `queueLimit` it is refused with a retry estimate.
 */

export class QueueFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The local model is busy: too many requests are waiting.');
    this.name = 'QueueFullError';
  }
}

interface Waiter<T> {
  prompt: readonly number[];
  resolve(item: T): void;
  reject(error: unknown): void;
  cleanup(): void;
}

export class SequencePool<T> {
  private readonly free: T[];
  private readonly waiting: Waiter<T>[] = [];
  private readonly startedAt = new Map<T, number>();
  /** Moving average of how long a request holds a sequence, seconds. */
  private averageHoldSeconds = 1;

  constructor(
    items: readonly T[],
    private readonly queueLimit: number,
    private readonly sharedPrefix: (item: T, prompt: readonly number[]) => number = () => 0,
  ) {
    this.free = [...items];
  }

  get queued(): number {
    return this.waiting.length;
  }

  get idle(): number {
    return this.free.length;
  }

  acquire(prompt: readonly number[], signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.free.length > 0 && this.waiting.length === 0) return Promise.resolve(this.take(prompt));
    if (this.waiting.length >= this.queueLimit) return Promise.reject(new QueueFullError(this.retryAfter()));
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortError());
      };
      const waiter: Waiter<T> = { prompt, resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  release(item: T): void {
    const started = this.startedAt.get(item);
    if (started !== undefined) {
      const held = (performance.now() - started) / 1000;
      this.averageHoldSeconds = 0.8 * this.averageHoldSeconds + 0.2 * held;
      this.startedAt.delete(item);
    }
    this.free.push(item);
    const next = this.waiting.shift();
    if (next) {
      next.cleanup();
      next.resolve(this.take(next.prompt));
    }
  }

  private take(prompt: readonly number[]): T {
    let best = 0;
    let bestShared = -1;
    this.free.forEach((item, index) => {
      const shared = this.sharedPrefix(item, prompt);
      if (shared > bestShared) {
        best = index;
        bestShared = shared;
      }
    });
    const [item] = this.free.splice(best, 1);
    this.startedAt.set(item, performance.now());
    return item;
  }

  /** Seconds until a queued request would likely start: the queue drains one hold time per busy sequence. */
  private retryAfter(): number {
    const busy = Math.max(1, this.startedAt.size);
    return Math.min(60, Math.max(1, Math.ceil((this.averageHoldSeconds * (this.waiting.length + 1)) / busy)));
  }
}

export function abortError(): Error {
  const error = new Error('The request was cancelled.');
  error.name = 'AbortError';
  return error;
}
