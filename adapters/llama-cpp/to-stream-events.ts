/**
 * The engine's LlamaEvents -> neutral StreamEvents for one choice: echo first
 * (a `text-delta` with `echo: true`), then text deltas with token ids and
 * logprobs, then the finish reason, timings and exact usage.
 */
import type { TokenLogprob } from '../../src/model/logprobs.js';
import type { PerfMetrics, Usage } from '../../src/model/result.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import type { LlamaEvent, LlamaPerf, LlamaPromptLogprob, LlamaUsage } from './types.js';

export interface ToStreamEventsOptions {
  choice?: number;
  /** Hears the prompt's size in tokens (BOS included) before anything is generated. */
  onPrompt?(tokens: number): void;
}

export async function* toStreamEvents(
  events: AsyncIterable<LlamaEvent>,
  { choice = 0, onPrompt }: ToStreamEventsOptions = {},
): AsyncGenerator<StreamEvent> {
  let promptTokenIds: number[] | undefined;
  const firstDelta = () => {
    const extra = promptTokenIds ? { promptTokenIds } : {};
    promptTokenIds = undefined;
    return extra;
  };
  for await (const event of events) {
    switch (event.type) {
      case 'prompt':
        promptTokenIds = event.tokenIds;
        onPrompt?.(event.tokenIds.length);
        if (event.echo) {
          yield {
            type: 'text-delta',
            choice,
            delta: event.echo.text,
            echo: true,
            tokenIds: event.echo.tokenIds,
            ...(event.echo.logprobs ? { logprobs: event.echo.logprobs.map(toTokenLogprob) } : {}),
            ...firstDelta(),
          };
        }
        break;
      case 'token':
        yield {
          type: 'text-delta',
          choice,
          delta: event.text,
          tokenIds: event.tokenIds,
          ...(event.logprobs ? { logprobs: event.logprobs.map(toTokenLogprob) } : {}),
          ...firstDelta(),
        };
        break;
      case 'end':
        if (promptTokenIds) yield { type: 'text-delta', choice, delta: '', ...firstDelta() };
        yield { type: 'choice-end', choice, finishReason: event.finishReason };
        yield { type: 'perf', perf: toPerf(event.perf, event.usage) };
        yield { type: 'usage', usage: toUsage(event.usage) };
        break;
    }
  }
}

export function toTokenLogprob(entry: LlamaPromptLogprob): TokenLogprob {
  const out: TokenLogprob = {
    token: entry.token,
    logprob: entry.logprob ?? 0,
    tokenId: entry.tokenId,
    bytes: entry.bytes,
    top: entry.top.map((alternative) => ({
      token: alternative.token,
      logprob: alternative.logprob,
      tokenId: alternative.tokenId,
      bytes: alternative.bytes,
    })),
  };
  if (entry.logprob === null) out.noLogprob = true;
  return out;
}

export function toUsage(usage: LlamaUsage): Usage {
  return {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.promptTokens + usage.completionTokens,
    cachedPromptTokens: usage.cachedPromptTokens,
  };
}

/** Milliseconds from the worker -> the neutral seconds. */
export function toPerf(perf: LlamaPerf, usage: LlamaUsage): PerfMetrics {
  const seconds = (ms: number) => ms / 1000;
  return {
    promptTokens: usage.promptTokens,
    cachedPromptTokens: usage.cachedPromptTokens,
    queueTime: seconds(perf.queueMs),
    prefillTime: seconds(perf.prefillMs),
    timeToFirstToken: seconds(perf.timeToFirstTokenMs),
    generationTime: seconds(perf.generationMs),
    processingTime: seconds(perf.totalMs),
    backend: { tokens_per_second: perf.tokensPerSecond },
  };
}
