/** Working with an engine's stream of event batches (StreamBatches). */
import type { StreamBatches, StreamEvent } from '../model/stream-event.js';

/**
 * A stream transformed one event at a time, in one synchronous step per batch:
 * `step` appends what an event becomes (nothing, itself, or more) to `out`;
 * `finish` what is left once the source has ended. Empty batches are not passed on.
 */
export async function* mapEvents(source: StreamBatches, step: (event: StreamEvent, out: StreamEvent[]) => void, finish?: (out: StreamEvent[]) => void): StreamBatches {
  for await (const batch of source) {
    const out: StreamEvent[] = [];
    for (const event of batch) step(event, out);
    if (out.length > 0) yield out;
  }
  if (finish) {
    const out: StreamEvent[] = [];
    finish(out);
    if (out.length > 0) yield out;
  }
}

/** The events one by one, for consumers that are not on a per-event path (collectors, tests). */
export async function* eachEvent(source: StreamBatches): AsyncGenerator<StreamEvent> {
  for await (const batch of source) yield* batch;
}
