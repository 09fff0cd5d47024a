/** The pieces every Gemini answer shares, whole or streamed: finish reasons, usage, parts, logprobs. */
import { argumentsObject } from '../../model/tool-arguments.js';
import type { TokenLogprob } from '../../model/logprobs.js';
import type { NeutralRequest, ToolCall } from '../../model/request.js';
import type { FinishReason, Usage } from '../../model/result.js';

/** Google says STOP for an answer that ends in function calls too. */
const FINISH_REASONS: Readonly<Record<FinishReason, string>> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  tool_calls: 'STOP',
  function_call: 'STOP',
  error: 'OTHER',
};

export const MALFORMED_FUNCTION_CALL = 'MALFORMED_FUNCTION_CALL';

export function finishReasonOf(reason: FinishReason | null): string | undefined {
  return reason === null ? undefined : FINISH_REASONS[reason];
}

/** Google's counts: the answer's tokens without the thoughts, which are counted apart; the total is all of them. */
export function usageMetadataOf(usage: Usage | undefined): Record<string, number> | undefined {
  if (!usage) return undefined;
  const thoughts = usage.reasoningTokens ?? 0;
  const metadata: Record<string, number> = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: Math.max(0, usage.completionTokens - thoughts),
  };
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  if (usage.cachedPromptTokens) metadata.cachedContentTokenCount = usage.cachedPromptTokens;
  metadata.totalTokenCount = usage.totalTokens;
  return metadata;
}

export function callerModel(request: NeutralRequest, backendModel: string): string {
  const echoed = request.echoedParams?.model;
  return typeof echoed === 'string' ? echoed : backendModel;
}

export function includesThoughts(request: NeutralRequest): boolean {
  return request.echoedParams?.includeThoughts === true;
}

/** A call as a part: `args` an object (Google's is never text); undefined when the model's arguments are not a JSON object. */
export function functionCallPart(call: Pick<ToolCall, 'id' | 'name' | 'arguments'>): Record<string, unknown> | undefined {
  const args = argumentsObject(call.arguments);
  return args && { functionCall: { id: call.id, name: call.name, args } };
}

export function malformedMessage(call: Pick<ToolCall, 'name' | 'arguments'>): string {
  return `Malformed function call: ${call.name}(${call.arguments})`;
}

/** `logprobsResult`: the chosen token at each step, and its top alternatives when asked. */
export function logprobsResultOf(logprobs: readonly TokenLogprob[]): Record<string, unknown> {
  return {
    chosenCandidates: logprobs.map(({ token, logprob }) => ({ token, logProbability: logprob })),
    topCandidates: logprobs.map(({ top }) => ({ candidates: top.map(({ token, logprob }) => ({ token, logProbability: logprob })) })),
  };
}
