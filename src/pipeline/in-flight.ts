/**
 * The requests being handled: a shutdown waits for them to finish, then ends
 * those still running. Each request hands in its AbortController: a Set, not a
 * listener per request on one shared AbortSignal, whose listener list (as long
 * as the requests in flight) Node walks on every add and remove.
 */
export class InFlight {
  private readonly requests = new Set<AbortController>();
  private waiters: (() => void)[] = [];
  private endedWith?: { reason: unknown };

  get size(): number {
    return this.requests.size;
  }

  /** A request begins; `abort` is aborted when the requests are ended (at once, if they have been). */
  enter(abort: AbortController): void {
    this.requests.add(abort);
    if (this.endedWith) abort.abort(this.endedWith.reason);
  }

  leave(abort: AbortController): void {
    this.requests.delete(abort);
    if (this.requests.size === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Aborts every request in flight with `reason`, and every one that begins after. */
  end(reason: unknown): void {
    this.endedWith = { reason };
    for (const abort of this.requests) abort.abort(reason);
  }

  /** Resolves when no request is in flight (at once if none is). */
  idle(): Promise<void> {
    return this.requests.size === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
