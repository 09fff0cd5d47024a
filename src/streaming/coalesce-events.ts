/**
 * Fireworks `stream_options.buffer_tokens` / `buffer_ms` / `buffer_mode`, done in
 * the proxy for every backend: text and reasoning deltas are merged per choice
 * until a threshold is reached. Any other event flushes first, so finish
 * reasons, tool calls, usage and errors are never held back, and the merged
 * stream assembles to exactly the unbuffered result.
 */
import type { StreamBatches, StreamEvent, StreamEventOf } from '../model/stream-event.js';
import { pushAll } from '../model/push-all.js';

type Delta = StreamEventOf<'text-delta'> | StreamEventOf<'reasoning-delta'>;

export interface CoalesceOptions {
  tokens?: number;
  ms?: number;
  mode: 'any' | 'all';
}

export async function* coalesceEvents(batches: StreamBatches, options: CoalesceOptions, now: () => number = Date.now): StreamBatches {
  const tokens = options.tokens ?? 0;
  const ms = options.ms ?? 0;
  if (tokens <= 0 && ms <= 0) {
    yield* batches;
    return;
  }
  let buffered: Delta[] = [];
  let count = 0;
  let since = 0;
  const due = (): boolean => {
    const byTokens = tokens > 0 && count >= tokens;
    const byTime = ms > 0 && now() - since >= ms;
    if (tokens > 0 && ms > 0) return options.mode === 'all' ? byTokens && byTime : byTokens || byTime;
    return byTokens || byTime;
  };
  const flush = (): StreamEvent[] => {
    const merged = mergeDeltas(buffered);
    buffered = [];
    count = 0;
    return merged;
  };

  const iterator = batches[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      // With a time threshold, wake up when it expires even if the upstream is silent.
      const waitMs = ms > 0 && buffered.length > 0 ? Math.max(0, since + ms - now()) : undefined;
      const step = waitMs === undefined ? await next : await raceTimeout(next, waitMs);
      if (step === 'timeout') {
        if (due()) yield flush();
        // 'all' mode: the time is up, so wait for the token threshold too. (A timer that fired
        // a millisecond early by Date.now's clock just waits again for the rest.)
        else if (now() - since >= ms)
          await next.then(
            () => undefined,
            () => undefined,
          );
        continue;
      }
      if (step.done) break;
      next = iterator.next();
      const out: StreamEvent[] = [];
      for (const event of step.value) {
        if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
          if (buffered.length === 0) since = now();
          buffered.push(event);
          count += 1;
          if (due()) pushAll(out, flush());
        } else {
          pushAll(out, flush()).push(event);
        }
      }
      if (out.length > 0) yield out;
    }
    const rest = flush();
    if (rest.length > 0) yield rest;
  } finally {
    await iterator.return?.();
  }
}

function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Merges the buffered deltas of each choice (interleaved choices are grouped),
 * joining consecutive deltas of the same kind so reasoning/text order holds.
 */
export function mergeDeltas(deltas: readonly Delta[]): Delta[] {
  const byChoice = new Map<number, Delta[]>();
  for (const delta of deltas) {
    const list = byChoice.get(delta.choice) ?? [];
    byChoice.set(delta.choice, list);
    const last = list[list.length - 1];
    if (last && last.type === delta.type) list[list.length - 1] = joinDeltas(last, delta);
    else list.push({ ...delta });
  }
  return [...byChoice.values()].flat();
}

function annotationsOf(delta: Delta): unknown[] {
  return delta.type === 'text-delta' ? (delta.annotations ?? []) : [];
}

function joinDeltas(a: Delta, b: Delta): Delta {
  const joined: Delta = { ...a, delta: a.delta + b.delta };
  if (a.tokenIds || b.tokenIds) joined.tokenIds = [...(a.tokenIds ?? []), ...(b.tokenIds ?? [])];
  if (a.logprobs || b.logprobs) joined.logprobs = [...(a.logprobs ?? []), ...(b.logprobs ?? [])];
  const annotations = [...annotationsOf(a), ...annotationsOf(b)];
  if (annotations.length > 0 && joined.type === 'text-delta') joined.annotations = annotations;
  return joined;
}
