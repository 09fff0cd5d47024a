/**
 * Runs several sub-requests as one: used for `n` on backends without native
 * choices and for prompt batches on chat-only backends. Sub-request `i`'s
 * choice `c` becomes choice `offsets[i] + c`; usage is summed; streams are
 * interleaved with one `response-start` and one `usage` at the end.
 */
import type { AdapterContext } from '../../backend/adapter.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type NeutralResult, type PerfMetrics, type Usage } from '../../model/result.js';
import type { StreamEvent } from '../../model/stream-event.js';
import { mergeStreams } from '../../streaming/merge-streams.js';
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

export async function* streamFanOut(inner: Engine, parts: readonly FanOutPart[], context: AdapterContext): AsyncGenerator<StreamEvent> {
  const streams = parts.map((part) => shiftChoices(inner.stream(part.request, context), part.choiceOffset));
  let started = false;
  let usage: Usage | undefined;
  let perf: PerfMetrics | undefined;
  for await (const event of mergeStreams(streams)) {
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
    yield event;
    if (event.type === 'error') return;
  }
  if (perf) yield { type: 'perf', perf };
  if (usage) yield { type: 'usage', usage };
}

async function* shiftChoices(events: AsyncIterable<StreamEvent>, offset: number): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    yield 'choice' in event && offset !== 0 ? { ...event, choice: event.choice + offset } : event;
  }
}
