/**
 * Fireworks completions wire body (already validated against
 * config/openapi/fireworks-completions.yaml) -> NeutralRequest.
 * The prompt (string | string[] | int[] | int[][]) is kept as given.
 */
import { emptyRequest, type NeutralRequest } from '../../model/request.js';
import { applyFieldTable } from '../field-table.js';
import { applyCrossFieldRules, type RequestHeaders } from '../cross-field-rules.js';
import { completionsCrossFieldRules, completionsFields } from './request-fields.js';

/**
 * @example parseCompletionsRequest({model: 'm', prompt: 'Once upon a time', logprobs: 2})
 */
export function parseCompletionsRequest(body: Record<string, unknown>, headers: RequestHeaders = {}): NeutralRequest {
  const request = emptyRequest('text');
  applyCrossFieldRules(completionsCrossFieldRules, { body, headers, request });
  applyFieldTable(completionsFields, body, request);
  return request;
}
