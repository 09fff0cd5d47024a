/**
 * A stream in the caller's dialect, one synchronous step per neutral event:
 * no async generator per stage, so an event costs a few calls, not a few
 * promise turns (the pipeline has one async loop, at the socket).
 */
import type { SerializedEvent, StreamEvent } from '../model/stream-event.js';
import type { VendorName } from '../model/vendor-data.js';

/** `V`: the vendors whose own events (src/model/vendor-data.ts) it reads; none unless it names them. */
export interface StreamSerializer<V extends VendorName = never> {
  /** The vendors whose events reach `push`; any other vendor's event is skipped before it (pushEvent). */
  readonly vendors?: readonly V[];
  /**
   * Appends the wire chunks this event makes (no SSE framing). An `error` event makes an `{error}` chunk and ends
   * the stream. Called through pushEvent, never with another vendor's event.
   */
  push(event: SerializedEvent<V>, out: Record<string, unknown>[]): void;
  /** Appends the closing chunks once the events are over (none after an error; no `[DONE]`). */
  finish(out: Record<string, unknown>[]): void;
  /** True once an error chunk ended the stream: later events make nothing. */
  readonly ended: boolean;
}

/** A serializer of any dialect, as the pipeline holds one. */
export type AnyStreamSerializer = StreamSerializer<VendorName>;

/**
 * The one place a vendor's event is kept from the serializers that do not name its vendor: a new vendor's
 * event changes no other dialect's serializer.
 */
export function pushEvent(serializer: AnyStreamSerializer, event: StreamEvent, out: Record<string, unknown>[]): void {
  if (event.type === 'vendor' && !serializer.vendors?.includes(event.vendor)) return;
  serializer.push(event, out);
}

/**
 * The same as an async iterable, for callers outside the request path (the migration tools, tests).
 *
 * @example for await (const chunk of serializeEvents(dialect.streamSerializer(request), events)) write(chunk)
 */
export async function* serializeEvents(
  serializer: AnyStreamSerializer,
  events: AsyncIterable<StreamEvent>,
): AsyncGenerator<Record<string, unknown>> {
  const out: Record<string, unknown>[] = [];
  for await (const event of events) {
    pushEvent(serializer, event, out);
    yield* out.splice(0);
    if (serializer.ended) return;
  }
  serializer.finish(out);
  yield* out;
}
