/**
 * One request through undici's dispatch API, its answer read without a stream
 * object in between: undici hands each body chunk to `onResponseData`, which
 * gives it to the reader waiting for it, one promise per upstream packet
 * (docs/performance.md, "Transport").
 */
import type { Dispatcher } from 'undici';
import type { AbortSource } from './deadline.js';

type Controller = Dispatcher.DispatchController;

export interface UpstreamHead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** Queued bytes past which the upstream is paused until the reader catches up (a Readable's default). */
const HIGH_WATER_MARK = 64 * 1024;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Why a body read stopped when its reader let go before the end (as undici's Readable says it). */
class BodyAbandoned extends Error {
  readonly code = 'UND_ERR_ABORTED';
  override readonly name = 'AbortError';
  constructor() {
    super('Request aborted');
  }
}

const asError = (reason: unknown): Error => (reason instanceof Error ? reason : new BodyAbandoned());

/**
 * The dispatch handler of one request, and the reader of its answer's body:
 * `head` settles with the status and headers (or the failure before them),
 * then the body is read once, by `for await` or `text()`.
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler, AsyncIterableIterator<Buffer> {
  readonly head: Promise<UpstreamHead>;
  private settleHead!: { resolve(head: UpstreamHead): void; reject(error: unknown): void };
  private controller?: Controller;
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private waiting?: { resolve(result: IteratorResult<Buffer>): void; reject(error: unknown): void };
  private completed = false;
  private failure?: unknown;
  private headSettled = false;
  private stopFollowing?: () => void;

  /**
   * `signal` aborts the request at any point: before the answer, the head rejects; after, the body's reader does.
   * `watch` (a trace's span for this try) is told the status, then once that the exchange is over: the body read to its end, or the failure.
   */
  constructor(
    signal?: AbortSource,
    private readonly watch?: { status(code: number): void; end(error?: unknown): void },
  ) {
    this.head = new Promise((resolve, reject) => {
      this.settleHead = { resolve, reject };
    });
    if (!signal) return;
    if (signal.aborted) {
      this.fail(signal.reason); // the request is aborted as soon as it starts
      return;
    }
    const follow = () => this.fail(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    this.stopFollowing = () => signal.removeEventListener('abort', follow);
  }

  /** True once the whole body has been read (or the exchange failed or was let go). */
  get readableEnded(): boolean {
    return (this.completed && this.queue.length === 0) || this.failure !== undefined;
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    if (this.failure !== undefined) controller.abort(asError(this.failure));
  }

  onResponseStart(controller: Controller, status: number, headers: Record<string, string | string[] | undefined>): void {
    if (status < 200) return; // 1xx: the answer is still to come
    this.headSettled = true;
    this.watch?.status(status);
    this.settleHead.resolve({ status, headers });
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    if (this.queuedBytes >= HIGH_WATER_MARK) controller.pause();
  }

  onResponseEnd(): void {
    this.completed = true;
    this.stopFollowing?.();
    this.watch?.end();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(DONE);
  }

  onResponseError(_controller: Controller | undefined, error: Error): void {
    this.fail(error);
  }

  next(): Promise<IteratorResult<Buffer>> {
    const chunk = this.queue.shift();
    if (chunk) {
      this.queuedBytes -= chunk.length;
      if (this.controller?.paused && this.queuedBytes < HIGH_WATER_MARK) this.controller.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.completed) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The reader let go (`break` in `for await`): a body not read to its end closes its connection. */
  return(): Promise<IteratorResult<Buffer>> {
    this.destroy();
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The whole body as UTF-8 text. */
  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this) chunks.push(chunk);
    return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
  }

  /** Stops reading: a body not read to its end aborts the request, which closes its connection. */
  destroy(): void {
    if (this.readableEnded) return;
    this.fail(new BodyAbandoned());
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined || this.completed) return;
    this.failure = error;
    this.queue.length = 0;
    this.stopFollowing?.();
    this.watch?.end(error);
    this.controller?.abort(asError(error));
    if (!this.headSettled) {
      this.headSettled = true;
      this.settleHead.reject(error);
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}
