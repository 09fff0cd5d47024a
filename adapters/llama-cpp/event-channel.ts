/** A single-consumer async queue: push items, then end or fail; iterate once. */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private error?: { value: unknown; immediately: boolean };
  private wake?: () => void;

  push(item: T): void {
    if (this.ended || this.error) return;
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  /** Queued items are still delivered first, unless `immediately`. */
  fail(error: unknown, options: { immediately?: boolean } = {}): void {
    if (this.ended || this.error) return;
    this.error = { value: error, immediately: options.immediately ?? false };
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.error?.immediately) throw this.error.value;
      if (this.items.length > 0) {
        yield this.items.shift() as T;
        continue;
      }
      if (this.error) throw this.error.value;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
