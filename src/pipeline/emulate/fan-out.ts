/**
 * Runs several sub-requests as one: used for `n` on backends without native
 * choices and for prompt batches on chat-only backends. Sub-request `i`'s
 * choice `c` becomes choice `offsets[i] + c`; usage is summed; streams are
 * interleaved with one `response-start` and one `usage` at the end.
 */
import type { AdapterContext } from '../../backend/adapter.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type NeutralResult, type PerfMetrics, type Usage } from '../../model/result.js';
import type { StreamBatches, StreamEvent } from '../../model/stream-event.js';
import { mergeStreams } from '../../streaming/merge-streams.js';
import { mapEvents } from '../../streaming/stream-batches.js';
import type { Engine } from './engine.js';

export interface FanOutPart {
  request: NeutralRequest;
  /** Added to every choice index of this part. */
  choiceOffset: number;
}

export async function completeFanOut(inner: Engine, parts: readonly FanOutPart[], context: AdapterContext): Promise<NeutralResult> {
  const results = await Promise.all(parts.map((part) => inner.complete(part.request, context)));
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
  const streams = parts.map((part) => shiftChoices(inner.stream(part.request, context), part.choiceOffset));
  let started = false;
  let usage: Usage | undefined;
  let perf: PerfMetrics | undefined;
  for await (const batch of mergeStreams(streams)) {
    const out: StreamEvent[] = [];
    let failed = false;
    for (const event of batch) {
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
  const end: StreamEvent[] = [];
  if (perf) end.push({ type: 'perf', perf });
  if (usage) end.push({ type: 'usage', usage });
  if (end.length > 0) yield end;
}

function shiftChoices(batches: StreamBatches, offset: number): StreamBatches {
  if (offset === 0) return batches;
  return mapEvents(() => batches, (event, out) => {
    out.push('choice' in event ? { ...event, choice: event.choice + offset } : event);
  });
}
