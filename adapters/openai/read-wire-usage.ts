/** Wire `usage` (OpenAI, Fireworks, vLLM, llama.cpp) -> neutral Usage. */
import type { Usage } from '../../src/model/result.js';
import { isRecord } from '../is-record.js';

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
  const cached = isRecord(wire.prompt_tokens_details) ? count(wire.prompt_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) usage.cachedPromptTokens = cached;
  const reasoning = isRecord(wire.completion_tokens_details) ? count(wire.completion_tokens_details.reasoning_tokens) : undefined;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
