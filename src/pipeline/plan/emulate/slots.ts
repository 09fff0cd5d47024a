/**
 * At most `size` holders at once; the rest wait in arrival order. A waiter
 * whose request is aborted leaves the queue at once. Fan-out takes one slot of
 * its request's, one of its key's and one of the process's before each
 * sub-request (fan-out-slots.ts), so a batch never opens more upstream
 * requests than all three allow.
 */
export class Slots {
  private held = 0;
  private readonly waiting: { grant(): void; signal: AbortSignal; onAbort(): void }[] = [];

  constructor(readonly size: number) {}

  get inUse(): number {
    return this.held;
  }

  /** Nobody holds a slot or waits for one. */
  get idle(): boolean {
    return this.held === 0 && this.waiting.length === 0;
  }

  /** Resolves with the release of a slot (safe to call twice); rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.held < this.size) {
      this.held += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => resolve(this.releaser()),
        signal,
        onAbort: () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (!next) {
        this.held -= 1;
        return;
      }
      // The slot passes straight to the next waiter.
      next.signal.removeEventListener('abort', next.onAbort);
      next.grant();
    };
  }
}
