/**
 * NeutralResult -> Gemini's GenerateContentResponse: a candidate per choice, its parts in order
 * (thought parts when the caller asked for thoughts, the text, the function calls), the sealed
 * thoughtSignature on the first call (or the last part), Google's finish reasons and usage.
 */
import type { NeutralRequest } from '../../model/request.js';
import type { NeutralResult, ResultChoice } from '../../model/result.js';
import type { DialectContext } from '../dialect.js';
import {
  callerModel,
  finishReasonOf,
  functionCallPart,
  includesThoughts,
  logprobsResultOf,
  malformedMessage,
  MALFORMED_FUNCTION_CALL,
  usageMetadataOf,
} from './response-body.js';
import { redactedOf } from '../sealed-reasoning.js';
import { sealThoughtSignature } from './thought-signature.js';

export function serializeGeminiResult(result: NeutralResult, request: NeutralRequest, context?: DialectContext): Record<string, unknown> {
  const usageMetadata = usageMetadataOf(result.usage);
  return {
    candidates: result.choices.map((choice) => candidateOf(choice, request, context)),
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion: callerModel(request, result.model),
    responseId: result.id,
  };
}

function candidateOf(choice: ResultChoice, request: NeutralRequest, context: DialectContext | undefined): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [];
  if (choice.reasoning && includesThoughts(request)) parts.push({ text: choice.reasoning, thought: true });
  if (choice.text) parts.push({ text: choice.text });
  if (choice.refusal) parts.push({ text: choice.refusal });
  let finishReason = finishReasonOf(choice.finishReason);
  let finishMessage: string | undefined;
  for (const call of choice.toolCalls ?? []) {
    const part = functionCallPart(call);
    if (part) parts.push(part);
    else {
      finishReason = MALFORMED_FUNCTION_CALL;
      finishMessage ??= malformedMessage(call);
    }
  }
  const signature = sealThoughtSignature(
    {
      ...(choice.reasoning !== undefined ? { text: choice.reasoning } : {}),
      ...(choice.reasoningSignature !== undefined ? { signature: choice.reasoningSignature } : {}),
      ...redactedOf(choice),
    },
    context,
  );
  if (signature) {
    const carrier = parts.find((part) => 'functionCall' in part) ?? parts[parts.length - 1];
    if (carrier) carrier.thoughtSignature = signature;
    else parts.push({ text: '', thoughtSignature: signature });
  }
  return {
    content: { parts, role: 'model' },
    ...(finishReason ? { finishReason } : {}),
    ...(finishMessage ? { finishMessage } : {}),
    index: choice.index,
    ...(choice.logprobs?.length ? { logprobsResult: logprobsResultOf(choice.logprobs) } : {}),
  };
}
