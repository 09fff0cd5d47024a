/** Neutral usage -> the wire `usage` object both dialects share. */
import type { Usage } from '../model/result.js';
import { COMPLETION_DETAILS, PROMPT_DETAILS, writeDetails } from '../model/usage-details.js';

export interface UsageBody {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: Record<string, number>;
  completion_tokens_details?: Record<string, number>;
}

/**
 * Details appear only when the backend counted them (a zero we did not measure
 * would be a lie). Fireworks' completions `UsageInfo` has only `cached_tokens`,
 * so `openaiDetails: false` keeps to that.
 * @example usageBody({promptTokens: 5, completionTokens: 2, totalTokens: 7}, {openaiDetails: true})
 */
export function usageBody(usage: Usage, options: { openaiDetails: boolean }): UsageBody {
  const body: UsageBody = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
  };
  const prompt = writeDetails(usage, options.openaiDetails ? PROMPT_DETAILS : { cached_tokens: 'cachedPromptTokens' });
  if (prompt) body.prompt_tokens_details = prompt;
  const completion = options.openaiDetails ? writeDetails(usage, COMPLETION_DETAILS) : undefined;
  if (completion) body.completion_tokens_details = completion;
  return body;
}
