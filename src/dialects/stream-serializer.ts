/**
 * A stream in the caller's dialect, one synchronous step per neutral event:
 * no async generator per stage, so an event costs a few calls, not a few
 * promise turns (the pipeline has one async loop, at the socket).
 */
import type { StreamEvent } from '../model/stream-event.js';

export interface StreamSerializer {
  /** Appends the wire chunks this event makes (no SSE framing). An `error` event makes an `{error}` chunk and ends the stream. */
  push(event: StreamEvent, out: Record<string, unknown>[]): void;
  /** Appends the closing chunks once the events are over (none after an error; no `[DONE]`). */
  finish(out: Record<string, unknown>[]): void;
  /** True once an error chunk ended the stream: later events make nothing. */
  readonly ended: boolean;
}

/**
 * The same as an async iterable, for callers outside the request path (the migration tools, tests).
 *
 * @example for await (const chunk of serializeEvents(dialect.streamSerializer(request), events)) write(chunk)
 */
export async function* serializeEvents(
  serializer: StreamSerializer,
  events: AsyncIterable<StreamEvent>,
): AsyncGenerator<Record<string, unknown>> {
  const out: Record<string, unknown>[] = [];
  for await (const event of events) {
    serializer.push(event, out);
    yield* out.splice(0);
    if (serializer.ended) return;
  }
  serializer.finish(out);
  yield* out;
}
