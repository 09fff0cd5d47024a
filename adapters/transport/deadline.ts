/**
 * A remote request's end: the caller's signal or `timeouts.totalMs`, whichever
 * comes first. The steps of a request (a slot under `maxConcurrent`, each try,
 * the wait between tries, reading the answer) listen to it as they would to an
 * AbortSignal. It is not one: an AbortController per request cost 3-9% of a
 * request's CPU (a build without the deadline, paired against one with it, as
 * `npm run bench -- --paired` pairs its targets), and every request has one.
 */

/** What the transport's steps read of an AbortSignal; an AbortSignal is one. */
export interface AbortSource {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class Deadline implements AbortSource {
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] = [];
  private readonly timer?: NodeJS.Timeout;

  /** A cleared timer, not AbortSignal.timeout, so that finished requests leave no timers behind. */
  constructor(
    private readonly caller: AbortSignal,
    ms: number,
  ) {
    if (caller.aborted) {
      this.abort(caller.reason);
      return;
    }
    caller.addEventListener('abort', this.follow);
    this.timer = setTimeout(() => this.abort(new DOMException(`No complete answer within ${ms} ms.`, 'TimeoutError')), ms);
  }

  /** Listeners are told once, as with `{ once: true }`. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** The request is over: no timer, no listener on the caller's signal. */
  clear(): void {
    clearTimeout(this.timer);
    this.caller.removeEventListener('abort', this.follow);
  }

  private readonly follow = (): void => this.abort(this.caller.reason);

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.clear();
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
