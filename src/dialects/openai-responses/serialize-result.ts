/**
 * NeutralResult -> the Responses API's `Response` object: a reasoning item when
 * the backend produced reasoning text, a message with one `output_text` part
 * (or a refusal), then one item per tool call; status and incomplete_details
 * from the finish reason.
 */
import type { NeutralRequest } from '../../model/request.js';
import type { NeutralResult, ResultChoice } from '../../model/result.js';
import { idBase } from '../response-id.js';
import type { DialectContext } from '../dialect.js';
import { redactedOf } from '../sealed-reasoning.js';
import type { Sealer } from '../sealer.js';
import { reasoningSealer, sealReasoning } from './sealed-items.js';
import {
  callItem,
  itemIds,
  logprobsBody,
  messageItem,
  outputTextPart,
  reasoningItem,
  requestToolNames,
  responseHead,
  statusOf,
  usageBody,
  type OutputItem,
} from './response-object.js';

/**
 * @example serializeResponsesResult({id: 'chatcmpl-1', model: 'm', created: 1, choices: [{index: 0, text: 'Hi', finishReason: 'stop'}]}, request)
 * // {id: 'resp_<32 random hex>', object: 'response', status: 'completed', output: [{type: 'message', content: [{type: 'output_text', text: 'Hi', ...}], ...}], ...}
 */
export function serializeResponsesResult(
  result: NeutralResult,
  request: NeutralRequest,
  context?: DialectContext,
): Record<string, unknown> {
  const choice: ResultChoice = result.choices[0] ?? { index: 0, text: '', finishReason: 'stop' };
  const { status, incomplete_details } = statusOf(choice.finishReason);
  const body = responseHead(request, result);
  body.status = status;
  body.incomplete_details = incomplete_details;
  body.completed_at = status === 'completed' ? Math.floor(Date.now() / 1000) : null;
  // The items are named after the Response's own id, never the backend's (response-object.ts).
  body.output = outputItems(choice, idBase(body.id as string), request, reasoningSealer(request, context));
  body.usage = usageBody(result.usage);
  if (result.serviceTier !== undefined) body.service_tier = result.serviceTier;
  return body;
}

function outputItems(choice: ResultChoice, base: string, request: NeutralRequest, sealer: Sealer | undefined): OutputItem[] {
  const items: OutputItem[] = [];
  const { reasoning = '', reasoningSignature } = choice;
  const redacted = redactedOf(choice);
  if (reasoning !== '' || (sealer && redacted.redacted)) {
    const sealed = sealer && {
      encrypted_content: sealReasoning(sealer, {
        text: reasoning,
        ...(reasoningSignature !== undefined ? { signature: reasoningSignature } : {}),
        ...redacted,
      }),
    };
    items.push({ ...reasoningItem(itemIds.reasoning(base), reasoning), ...sealed });
  }
  const calls = choice.toolCalls ?? [];
  const itemStatus = statusOf(choice.finishReason).status === 'incomplete' ? 'incomplete' : 'completed';
  if (choice.refusal) items.push(messageItem(itemIds.message(base), itemStatus, [{ type: 'refusal', refusal: choice.refusal }]));
  else if (choice.text !== '' || calls.length === 0) {
    items.push(messageItem(itemIds.message(base), itemStatus, [outputTextPart(choice.text, logprobsBody(choice.logprobs, request))]));
  }
  const names = requestToolNames(request);
  calls.forEach((call, i) => items.push(callItem(itemIds.call(base, i), call, 'completed', names)));
  return items;
}
