/**
 * An upstream stream's reader: decoded SSE messages -> neutral events, one
 * synchronous step per message. The remote adapter feeds it each packet's
 * messages and yields their events as one batch: one async step per packet.
 */
import type { StreamEvent } from '../src/model/stream-event.js';
import type { SseMessage } from '../src/streaming/decode-sse.js';

export interface ChunkReader {
  /** Appends the events of one message; an `error` event ends the stream. */
  push(message: SseMessage, out: StreamEvent[]): void;
  /** The upstream stream is over: appends the closing events (usage, or an error for a stream cut short). */
  finish(out: StreamEvent[]): void;
  /** True once an error ended the stream, or after `finish`. */
  readonly ended: boolean;
}
