/**
 * Runs several sub-requests as one: used for `n` on backends without native
 * choices and for prompt batches on chat-only backends. Sub-request `i`'s
 * choice `c` becomes choice `offsets[i] + c`; usage is summed; streams are
 * interleaved with one `response-start` and one `usage` at the end. At most
 * `context.fanOut.perRequest` sub-requests run at once, each also holding a
 * slot of its API key's share of the process's (`limits.fanOut*`,
 * fan-out-slots.ts); the others wait their turn.
 */
import { setMaxListeners } from 'node:events';
import type { AdapterContext } from '../../../backend/adapter.js';
import { DEFAULT_LIMITS } from '../../../config/settings.js';
import type { NeutralRequest } from '../../../model/request.js';
import { addUsage, type NeutralResult, type PerfMetrics, type Usage } from '../../../model/result.js';
import type { StreamBatches, StreamEvent } from '../../../model/stream-event.js';
import { mergeStreams } from '../../../streaming/merge-streams.js';
import { mapEvents } from '../../../streaming/stream-batches.js';
import type { Engine } from './engine.js';
import { Slots } from './slots.js';

export interface FanOutPart {
  request: NeutralRequest;
  /** Added to every choice index of this part. */
  choiceOffset: number;
}

/** Takes a slot of the request's, then one of the process's (its key's share first); resolves with the release of both. */
type TakeSlots = (signal: AbortSignal) => Promise<() => void>;

function slotsFor(context: AdapterContext): TakeSlots {
  const own = new Slots(context.fanOut?.perRequest ?? DEFAULT_LIMITS.fanOutPerRequest);
  const shared = context.fanOut?.process;
  const { owner } = context;
  return async (signal) => {
    const releaseOwn = await own.acquire(signal);
    if (!shared) return releaseOwn;
    try {
      const releaseShared = await shared.acquire(signal, owner);
      return () => {
        releaseShared();
        releaseOwn();
      };
    } catch (error) {
      releaseOwn();
      throw error;
    }
  };
}

export async function completeFanOut(inner: Engine, parts: readonly FanOutPart[], context: AdapterContext): Promise<NeutralResult> {
  const take = slotsFor(context);
  // A part that fails aborts the ones still waiting or running: the answer is lost anyway.
  const abort = new AbortController();
  const signal = partsSignal(context.signal, abort.signal);
  const results = await Promise.all(
    parts.map(async (part) => {
      const release = await take(signal);
      try {
        return await inner.complete(part.request, { ...context, signal });
      } catch (error) {
        abort.abort(error);
        throw error;
      } finally {
        release();
      }
    }),
  );
  const first = results[0];
  let usage: Usage | undefined;
  for (const result of results) if (result.usage) usage = addUsage(usage, result.usage);
  return {
    ...first,
    choices: results.flatMap((result, i) => result.choices.map((choice) => ({ ...choice, index: choice.index + parts[i].choiceOffset }))),
    ...(usage ? { usage } : {}),
  };
}

export async function* streamFanOut(inner: Engine, parts: readonly FanOutPart[], context: AdapterContext): StreamBatches {
  const take = slotsFor(context);
  // Ended with the stream (an error, or the consumer closing it): parts still waiting for a slot
  // give up at once instead of opening upstream requests nobody reads.
  const stop = new AbortController();
  const signal = partsSignal(context.signal, stop.signal);
  const streams = parts.map((part) =>
    shiftChoices(
      whenSlotFree(
        () => take(signal),
        () => inner.stream(part.request, { ...context, signal }),
      ),
      part.choiceOffset,
    ),
  );
  const merged = mergeStreams(streams);
  let started = false;
  let usage: Usage | undefined;
  let perf: PerfMetrics | undefined;
  try {
    for (let next = await merged.next(); !next.done; next = await merged.next()) {
      const out: StreamEvent[] = [];
      let failed = false;
      for (const event of next.value) {
        if (event.type === 'response-start') {
          if (started) continue;
          started = true;
        } else if (event.type === 'usage') {
          usage = addUsage(usage, event.usage);
          continue;
        } else if (event.type === 'perf') {
          perf ??= event.perf;
          continue;
        }
        out.push(event);
        if (event.type === 'error') {
          failed = true;
          break;
        }
      }
      if (out.length > 0) yield out;
      if (failed) return;
    }
  } finally {
    stop.abort();
    await merged.return(undefined);
  }
  const end: StreamEvent[] = [];
  if (perf) end.push({ type: 'perf', perf });
  if (usage) end.push({ type: 'usage', usage });
  if (end.length > 0) yield end;
}

/** Aborted with the caller or the fan-out; every part (and its wait for a slot) listens to it, so no listener cap applies. */
function partsSignal(caller: AbortSignal, fanOut: AbortSignal): AbortSignal {
  const signal = AbortSignal.any([caller, fanOut]);
  setMaxListeners(0, signal);
  return signal;
}

/** The stream, opened once a slot is free and holding it until it ends (or is closed). */
async function* whenSlotFree(take: () => Promise<() => void>, open: () => StreamBatches): StreamBatches {
  const release = await take();
  try {
    yield* open();
  } finally {
    release();
  }
}

function shiftChoices(batches: StreamBatches, offset: number): StreamBatches {
  if (offset === 0) return batches;
  return mapEvents(
    () => batches,
    (event, out) => {
      out.push('choice' in event ? { ...event, choice: event.choice + offset } : event);
    },
  );
}
