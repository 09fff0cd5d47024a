/** Counts the requests being handled, so a shutdown can wait for them to finish. */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];

  get size(): number {
    return this.count;
  }

  enter(): void {
    this.count += 1;
  }

  leave(): void {
    this.count -= 1;
    if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves when no request is in flight (at once if none is). */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }
}
