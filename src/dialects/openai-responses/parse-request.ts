/**
 * Responses wire body (already validated against config/openapi/openai-responses.yaml)
 * -> NeutralRequest: cross-field rules, one table row per field, and the
 * parameters the Response object repeats.
 */
import { emptyRequest, type NeutralRequest } from '../../model/request.js';
import { applyFieldTable } from '../field-table.js';
import type { DialectContext } from '../dialect.js';
import { isSet } from '../../model/is-set.js';
import { applyCrossFieldRules, type RequestHeaders } from '../cross-field-rules.js';
import { ECHOED_PARAMS, responsesCrossFieldRules, responsesFields } from './request-fields.js';

/**
 * @example parseResponsesRequest({model: 'm', input: 'Hi'}) // messages [{role: 'user', content: 'Hi'}]
 */
export function parseResponsesRequest(
  body: Record<string, unknown>,
  headers: RequestHeaders = {},
  context?: DialectContext,
): NeutralRequest {
  const request = emptyRequest('chat');
  applyCrossFieldRules(responsesCrossFieldRules, { body, headers, request });
  applyFieldTable(responsesFields, body, request, context);
  // A body with neither input nor instructions still asks the model for a turn, from nothing.
  request.messages ??= [];
  request.echoedParams = {};
  for (const name of ECHOED_PARAMS) if (isSet(body[name])) request.echoedParams[name] = body[name];
  return request;
}
