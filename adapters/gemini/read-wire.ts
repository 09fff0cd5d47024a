/** What Gemini's answers and stream chunks share: finish reasons, usage, a candidate's parts, logprobs. */
import type { TokenLogprob } from '../../src/model/logprobs.js';
import { isRecord } from '../../src/model/is-record.js';
import type { ToolCall } from '../../src/model/request.js';
import type { FinishReason, Usage } from '../../src/model/result.js';
import { withSignature } from './thought-signature.js';

/** Gemini's finish reasons that mean its safety or policy filters stopped the answer. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'LANGUAGE',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Gemini's `finishReason` -> the neutral one and, where it is not a plain stop, the words
 * that name it for a warning. STOP with function calls is `tool_calls`; a filter is
 * `content_filter`; a failed call (MALFORMED_FUNCTION_CALL and the like) or anything
 * else is named an error, never a clean stop.
 * @example readFinishReason('MAX_TOKENS', false) // {reason: 'length'}
 * @example readFinishReason(undefined, false)    // undefined (still generating)
 */
export function readFinishReason(value: unknown, calls: boolean): { reason: FinishReason; warning?: string } | undefined {
  if (typeof value !== 'string' || value === '' || value === 'FINISH_REASON_UNSPECIFIED') return undefined;
  if (value === 'STOP') return { reason: calls ? 'tool_calls' : 'stop' };
  if (value === 'MAX_TOKENS') return { reason: 'length' };
  if (FILTERED.has(value)) return { reason: 'content_filter', warning: `Gemini stopped the answer: finishReason ${value}` };
  return { reason: 'error', warning: `Gemini ended the answer with finishReason ${value}` };
}

/** `promptFeedback.blockReason`: Gemini refused the prompt itself, and answered no candidate. */
export function readBlockReason(body: Record<string, unknown>): string | undefined {
  const feedback = body.promptFeedback;
  return isRecord(feedback) && typeof feedback.blockReason === 'string' ? feedback.blockReason : undefined;
}

/**
 * `usageMetadata` -> neutral usage: thoughts count among the completion tokens (as OpenAI counts
 * reasoning tokens) and as reasoning tokens; the prompt holds the tool-use prompt too.
 * @example toUsage({promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 3, totalTokenCount: 10})
 * // {promptTokens: 5, completionTokens: 5, totalTokens: 10, reasoningTokens: 3}
 */
export function toUsage(wire: unknown): Usage | undefined {
  if (!isRecord(wire)) return undefined;
  const prompt = count(wire.promptTokenCount) + count(wire.toolUsePromptTokenCount);
  const thoughts = count(wire.thoughtsTokenCount);
  const completion = count(wire.candidatesTokenCount) + thoughts;
  const usage: Usage = {
    promptTokens: prompt,
    completionTokens: completion,
    totalTokens: typeof wire.totalTokenCount === 'number' ? wire.totalTokenCount : prompt + completion,
  };
  if (typeof wire.thoughtsTokenCount === 'number') usage.reasoningTokens = thoughts;
  if (typeof wire.cachedContentTokenCount === 'number') usage.cachedPromptTokens = wire.cachedContentTokenCount;
  return usage;
}

/** One candidate's parts, read: text, thought text, and function calls (their signatures in their ids). */
export interface CandidateParts {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
}

/**
 * @param callId the id for the `n`th call of the answer when Gemini gave none
 */
export function readParts(content: unknown, callId: (n: number) => string, firstCall = 0): CandidateParts {
  const read: CandidateParts = { text: '', reasoning: '', toolCalls: [] };
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
  for (const part of parts) {
    if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : callId(firstCall + read.toolCalls.length);
      read.toolCalls.push({
        id: withSignature(id, typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined),
        name: typeof call.name === 'string' ? call.name : '',
        arguments: JSON.stringify(call.args ?? {}),
      });
    } else if (typeof part.text === 'string') {
      if (part.thought === true) read.reasoning += part.text;
      else read.text += part.text;
    }
  }
  return read;
}

/** `logprobsResult` -> neutral logprobs: each chosen token with the step's top candidates. */
export function readLogprobs(wire: unknown): TokenLogprob[] | undefined {
  if (!isRecord(wire) || !Array.isArray(wire.chosenCandidates)) return undefined;
  const tops = Array.isArray(wire.topCandidates) ? wire.topCandidates : [];
  return wire.chosenCandidates.filter(isRecord).map((chosen, i) => {
    const step = tops[i];
    const top = isRecord(step) && Array.isArray(step.candidates) ? step.candidates.filter(isRecord).map(alternative) : [];
    return { ...alternative(chosen), top };
  });
}

function alternative(wire: Record<string, unknown>): { token: string; logprob: number } {
  return {
    token: typeof wire.token === 'string' ? wire.token : '',
    logprob: typeof wire.logProbability === 'number' ? wire.logProbability : 0,
  };
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
