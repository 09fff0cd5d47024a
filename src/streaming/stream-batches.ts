/** Working with an engine's stream of event batches (StreamBatches). */
import type { StreamBatches, StreamEvent } from '../model/stream-event.js';

/**
 * A stream transformed one event at a time, in one synchronous step per batch:
 * `step` appends what an event becomes (nothing, itself, or more) to `out`.
 * Empty batches are not passed on. The source is opened at the first pull, as
 * a generator would: what opening it throws (a chat template that fails to
 * render) surfaces there, where the pipeline reads a stream's failures.
 */
export async function* mapEvents(open: () => StreamBatches, step: (event: StreamEvent, out: StreamEvent[]) => void): StreamBatches {
  for await (const batch of open()) {
    const out: StreamEvent[] = [];
    for (const event of batch) step(event, out);
    if (out.length > 0) yield out;
  }
}

/** The events one by one, for consumers that are not on a per-event path (collectors, tests). */
export async function* eachEvent(source: StreamBatches): AsyncGenerator<StreamEvent> {
  for await (const batch of source) yield* batch;
}
