/**
 * OpenAI's usage detail counters (`prompt_tokens_details`, `completion_tokens_details`)
 * and the neutral names they map to, one line each, for both directions.
 */
import type { Usage } from './result.js';

export type UsageCounter = Exclude<keyof Usage, 'promptTokens' | 'completionTokens' | 'totalTokens'>;
export type DetailNames = Readonly<Record<string, UsageCounter>>;

export const PROMPT_DETAILS: DetailNames = { cached_tokens: 'cachedPromptTokens', audio_tokens: 'audioPromptTokens' };
export const COMPLETION_DETAILS: DetailNames = {
  reasoning_tokens: 'reasoningTokens',
  audio_tokens: 'audioCompletionTokens',
  accepted_prediction_tokens: 'acceptedPredictionTokens',
  rejected_prediction_tokens: 'rejectedPredictionTokens',
};

/** Wire details -> neutral counters (numbers only). */
export function readDetails(details: unknown, names: DetailNames, usage: Usage): void {
  if (!details || typeof details !== 'object') return;
  for (const [wire, counter] of Object.entries(names)) {
    const value = (details as Record<string, unknown>)[wire];
    if (typeof value === 'number' && Number.isFinite(value)) usage[counter] = value;
  }
}

/** Neutral counters -> a wire details object, or undefined when none was counted. */
export function writeDetails(usage: Usage, names: DetailNames): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const [wire, counter] of Object.entries(names)) {
    const value = usage[counter];
    if (value !== undefined) (out ??= {})[wire] = value;
  }
  return out;
}
