/** The neutral result of a non-streamed generation, and the pieces streams share with it. */
import type { TokenLogprob } from './logprobs.js';
import type { ToolCall } from './request.js';
import type { VendorData } from './vendor-data.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call' | 'error';

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cachedPromptTokens?: number;
  /** Prompt tokens written to the provider's cache (Anthropic's `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
  audioPromptTokens?: number;
  reasoningTokens?: number;
  audioCompletionTokens?: number;
  /** Predicted-output tokens that did (and did not) appear in the answer. */
  acceptedPredictionTokens?: number;
  rejectedPredictionTokens?: number;
}

/** The optional counters, each a plain sum across sub-requests. */
const optionalCounters = [
  'cachedPromptTokens',
  'cacheWriteTokens',
  'audioPromptTokens',
  'reasoningTokens',
  'audioCompletionTokens',
  'acceptedPredictionTokens',
  'rejectedPredictionTokens',
] as const;

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
  /** The generated text only, never the echoed prompt: the completions dialect prepends the echo itself. */
  text: string;
  reasoning?: string;
  /** The signature of the reasoning (an Anthropic backend's thinking block), to be returned with it. */
  reasoningSignature?: string;
  toolCalls?: ToolCall[];
  refusal?: string | null;
  /** Citations the backend attached to the text (OpenAI's `url_citation`s, from web search), kept as sent. */
  annotations?: unknown[];
  finishReason: FinishReason | null;
  /** Which of the request's stop sequences ended the text, when the backend says (finish reason `stop`). */
  stopSequence?: string;
  logprobs?: TokenLogprob[];
  /**
   * With `echo` / `echo_last`: the echoed prompt tokens in order (the whole prompt, or its last N tokens),
   * without a BOS the backend added; an unscored first prompt token carries `noLogprob: true`. Like
   * `echoText`, they are NOT part of `text`: the completions dialect prepends the echo and puts these
   * first in `logprobs`, with `text_offset` counted from the start of the echoed text.
   */
  promptLogprobs?: TokenLogprob[];
  /**
   * The echoed prompt text as the backend decoded it. When absent, the completions dialect echoes the
   * prompt string (`echo` on a string prompt) or else the `promptLogprobs` tokens' texts joined; with
   * neither, asking for an echo is an error.
   */
  echoText?: string;
  tokenIds?: number[];
  promptTokenIds?: number[];
  /** What only one vendor has (Anthropic's redacted reasoning, Fireworks' raw output): vendor-data.ts. */
  vendor?: VendorData<'choice'>;
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
  for (const key of optionalCounters) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
