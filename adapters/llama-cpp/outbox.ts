/**
 * The worker's messages to the host, batched. Token events leave at most once
 * per `windowMs` while they flow (the first after a pause leaves at once), so
 * a fast model streaming on several sequences wakes the HTTP thread, and
 * through it the sockets and clients, a few hundred times a second instead of
 * once per token. On a small machine those wake-ups compete with generation
 * itself. Any other message flushes the batch at once, keeping the order.
 */
export class Outbox<T> {
  private pending: T[] = [];
  private scheduled?: { cancel(): void };
  private lastPost = -Infinity;

  constructor(
    private readonly post: (batch: T[]) => void,
    private readonly windowMs: number,
  ) {}

  /** Queues a message that may wait up to `windowMs`. */
  push(message: T): void {
    this.pending.push(message);
    if (this.scheduled) return;
    const wait = this.lastPost + this.windowMs - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.flush(), wait);
      this.scheduled = { cancel: () => clearTimeout(timer) };
    } else {
      // Still wait for this turn to end: sequences decoded in one batch report together.
      const immediate = setImmediate(() => this.flush());
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  /** Sends a message now, after everything queued before it. */
  send(message: T): void {
    this.pending.push(message);
    this.flush();
  }

  flush(): void {
    this.scheduled?.cancel();
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.lastPost = performance.now();
    this.post(batch);
  }
}
