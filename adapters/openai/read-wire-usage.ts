/** Wire `usage` (OpenAI, Fireworks, vLLM, llama.cpp) -> neutral Usage. */
import type { Usage } from '../../src/model/result.js';
import { COMPLETION_DETAILS, PROMPT_DETAILS, readDetails } from '../../src/model/usage-details.js';
import { isRecord } from '../../src/model/is-record.js';

/**
 * @example readWireUsage({prompt_tokens: 5, completion_tokens: 4, total_tokens: 9, prompt_tokens_details: {cached_tokens: 4}})
 * // {promptTokens: 5, completionTokens: 4, totalTokens: 9, cachedPromptTokens: 4}
 */
export function readWireUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const promptTokens = count(wire.prompt_tokens) ?? 0;
  // Fireworks' `completion_tokens` is nullable.
  const completionTokens = count(wire.completion_tokens) ?? 0;
  const usage: Usage = { promptTokens, completionTokens, totalTokens: count(wire.total_tokens) ?? promptTokens + completionTokens };
  readDetails(wire.prompt_tokens_details, PROMPT_DETAILS, usage);
  readDetails(wire.completion_tokens_details, COMPLETION_DETAILS, usage);
  return usage;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
