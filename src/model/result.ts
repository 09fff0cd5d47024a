/** The neutral result of a non-streamed generation, and the pieces streams share with it. */
import type { TokenLogprob } from './logprobs.js';
import type { ToolCall } from './request.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | 'error';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cachedPromptTokens?: number;
  reasoningTokens?: number;
}

/** Timings in seconds, named as Fireworks' perf metrics are. */
export interface PerfMetrics {
  promptTokens?: number;
  cachedPromptTokens?: number;
  timeToFirstToken?: number;
  processingTime?: number;
  queueTime?: number;
  prefillTime?: number;
  generationTime?: number;
  /** Metrics the backend reported itself, passed through by wire name. */
  backend?: Record<string, unknown>;
}

export interface ResultChoice {
  index: number;
  text: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  refusal?: string | null;
  finishReason: FinishReason | null;
  logprobs?: TokenLogprob[];
  /** Logprobs of echoed prompt tokens, which come first in `text` when echo was asked. */
  promptLogprobs?: TokenLogprob[];
  tokenIds?: number[];
  promptTokenIds?: number[];
  rawOutput?: Record<string, unknown>;
}

export interface NeutralResult {
  id: string;
  model: string;
  created: number;
  choices: ResultChoice[];
  usage?: Usage;
  perf?: PerfMetrics;
  systemFingerprint?: string;
  serviceTier?: string;
}

export function addUsage(a: Usage | undefined, b: Usage): Usage {
  if (!a) return { ...b };
  const sum: Usage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.cachedPromptTokens !== undefined || b.cachedPromptTokens !== undefined) {
    sum.cachedPromptTokens = (a.cachedPromptTokens ?? 0) + (b.cachedPromptTokens ?? 0);
  }
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  return sum;
}
