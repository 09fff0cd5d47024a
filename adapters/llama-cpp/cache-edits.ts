/**
 * Lets one sequence edit its KV cache while other sequences generate.
 * node-llama-cpp 3.21 holds its context lock for as long as any sequence has
 * a decode queued, and erasing a sequence's tokens waits for that lock: with
 * streams generating back to back, a new request's cache edit would wait until
 * every other stream had ended (measured: 300 ms of "prefill" for a 5-token
 * prompt). `run(edit)` pauses the token loops before their next step (they
 * await `pause` when set), so the batch drains, the lock frees and the edit
 * runs; then they resume. The pause costs the other streams one step.
 */
export class CacheEdits {
  private pending = 0;
  private resume?: () => void;
  /** Set while an edit waits or runs: token loops await it before their next step. */
  pause?: Promise<void>;

  async run<T>(edit: () => Promise<T>): Promise<T> {
    if (this.pending++ === 0) this.pause = new Promise((resolve) => (this.resume = resolve));
    try {
      return await edit();
    } finally {
      if (--this.pending === 0) {
        this.pause = undefined;
        this.resume?.();
      }
    }
  }
}
