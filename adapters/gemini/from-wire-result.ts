/**
 * A Gemini `GenerateContentResponse` -> NeutralResult: each candidate a choice
 * (its text parts joined, its thought parts as reasoning, its function calls as
 * tool calls, each call's thoughtSignature carried in its id: thought-signature.ts),
 * `usageMetadata` as usage, `modelVersion` and `responseId`. A prompt Gemini blocked
 * (`promptFeedback.blockReason`, no candidate) is one empty choice finished by
 * `content_filter`, named in a warning.
 */
import { upstreamBadResponse } from '../../src/errors/catalogue.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { NeutralResult, ResultChoice } from '../../src/model/result.js';
import { callIds } from './call-ids.js';
import { mapErrorBody } from './gemini-errors.js';
import { readBlockReason, readFinishReason, readLogprobs, readParts, toUsage } from './read-wire.js';

/**
 * @example
 * fromWireResult({candidates: [{content: {role: 'model', parts: [{text: 'Hi'}]}, finishReason: 'STOP'}],
 *   usageMetadata: {promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4}, modelVersion: 'gemini-x', responseId: 'r1'}, request)
 * // {id: 'r1', model: 'gemini-x', created: <now>, choices: [{index: 0, text: 'Hi', finishReason: 'stop'}], usage: {...}}
 */
export function fromWireResult(body: unknown, request: NeutralRequest): NeutralResult {
  if (isRecord(body) && isRecord(body.error)) throw mapErrorBody(body, request);
  if (!isRecord(body) || (!Array.isArray(body.candidates) && readBlockReason(body) === undefined)) {
    throw upstreamBadResponse('The upstream backend returned a body that is not a GenerateContentResponse (no `candidates` list).');
  }
  const result: NeutralResult = {
    id: typeof body.responseId === 'string' ? body.responseId : '',
    model: typeof body.modelVersion === 'string' ? body.modelVersion : request.model,
    created: Math.floor(Date.now() / 1000),
    choices: readChoices(body, request),
  };
  const usage = toUsage(body.usageMetadata);
  if (usage) result.usage = usage;
  return result;
}

function readChoices(body: Record<string, unknown>, request: NeutralRequest): ResultChoice[] {
  const blocked = readBlockReason(body);
  if (blocked !== undefined) {
    request.warnings.push(`Gemini blocked the prompt: promptFeedback.blockReason ${blocked}`);
    return [{ index: 0, text: '', finishReason: 'content_filter' }];
  }
  const ids = callIds(body.responseId);
  let calls = 0;
  return (body.candidates as unknown[]).filter(isRecord).map((candidate, i) => {
    const parts = readParts(candidate.content, ids, calls);
    calls += parts.toolCalls.length;
    // parallel_tool_calls false: Gemini has no such switch, so the answer keeps its first call only.
    if (request.parallelToolCalls === false) parts.toolCalls.splice(1);
    const finish = readFinishReason(candidate.finishReason, parts.toolCalls.length > 0);
    if (finish?.warning) request.warnings.push(finish.warning);
    const choice: ResultChoice = {
      index: typeof candidate.index === 'number' ? candidate.index : i,
      text: parts.text,
      finishReason: finish?.reason ?? 'error',
    };
    if (parts.reasoning !== '') choice.reasoning = parts.reasoning;
    if (parts.toolCalls.length > 0) choice.toolCalls = parts.toolCalls;
    const logprobs = readLogprobs(candidate.logprobsResult);
    if (logprobs) choice.logprobs = logprobs;
    return choice;
  });
}
