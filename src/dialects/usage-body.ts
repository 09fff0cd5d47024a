/** Neutral usage -> the wire `usage` object both dialects share. */
import type { Usage } from '../model/result.js';

export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/**
 * Details appear only when the backend counted them (a zero we did not measure
 * would be a lie). Fireworks' completions `UsageInfo` has no completion details,
 * so `completionDetails: false` leaves `reasoning_tokens` out there.
 * @example usageBody({promptTokens: 5, completionTokens: 2, totalTokens: 7}, {completionDetails: true})
 */
export function usageBody(usage: Usage, options: { completionDetails: boolean }): UsageBody {
  const body: UsageBody = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
  if (usage.cachedPromptTokens !== undefined) body.prompt_tokens_details = { cached_tokens: usage.cachedPromptTokens };
  if (options.completionDetails && usage.reasoningTokens !== undefined) {
    body.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return body;
}
