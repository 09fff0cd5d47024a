/**
 * Writes SSE text to the client with back-pressure and keep-alive comments.
 * Text queued while one upstream packet is handled (which often carries many
 * events) leaves in one write, once the promise steps that packet set off are
 * done (process.nextTick): a packet that also ends the upstream body is
 * answered with its frames and the end in one write, not two (on loopback each
 * write costs as much as reading a whole packet's events). Not setImmediate,
 * which held every frame until the loop had read every other socket ready in
 * the same turn: under load, that was the wait of a whole turn on every token.
 */
import type { ServerResponse } from 'node:http';
import { keepAlive, type KeepAlive } from './keep-alive.js';

export class SseWriter {
  private pending = '';
  private scheduled = false;
  private readonly alive?: KeepAlive;

  /** `keepAliveMs`: `keepAliveFrame` (an SSE comment by default) after this long without a write (keep-alive.ts); off when unset. */
  constructor(
    private readonly response: ServerResponse,
    keepAliveMs?: number,
    keepAliveFrame?: string,
  ) {
    if (keepAliveMs) this.alive = keepAlive(response, keepAliveMs, keepAliveFrame);
  }

  /** The client went away, or the stream has ended. */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  write(text: string): void {
    if (text === '') return;
    this.pending += text;
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(this.flush);
    }
  }

  /**
   * While a client reads slower than we produce, a promise of its catching up (which holds the
   * stream, and through it the upstream); undefined when it keeps up. Read the socket's state now:
   * a drain may already have come while we waited for the last event.
   */
  drained(): Promise<void> | undefined {
    return this.response.writableNeedDrain ? drained(this.response) : undefined;
  }

  /** Writes what is queued and `text`, and ends the response. */
  end(text: string): void {
    this.alive?.stop();
    if (!this.closed) this.response.end(this.pending + text);
    this.pending = '';
  }

  /** No more keep-alives (the stream ended some other way). */
  stop(): void {
    this.alive?.stop();
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending === '' || this.response.destroyed) return;
    this.response.write(this.pending);
    this.pending = '';
    this.alive?.touch();
  };
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
