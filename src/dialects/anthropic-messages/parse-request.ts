/**
 * Messages wire body (already validated against config/openapi/anthropic-messages.yaml)
 * -> NeutralRequest. Cross-field rules first, then one table row per field.
 */
import { emptyRequest, type NeutralRequest } from '../../model/request.js';
import { applyCrossFieldRules, type RequestHeaders } from '../cross-field-rules.js';
import { applyFieldTable } from '../field-table.js';
import { messagesCrossFieldRules, messagesFields } from './request-fields.js';

/**
 * @example parseMessagesRequest({model: 'm', max_tokens: 64, messages: [{role: 'user', content: 'Hi'}]})
 */
export function parseMessagesRequest(body: Record<string, unknown>, headers: RequestHeaders = {}): NeutralRequest {
  const request = emptyRequest('chat');
  applyCrossFieldRules(messagesCrossFieldRules, { body, headers, request });
  // `system` goes first whatever the key order: the table reads messages before it.
  const { system, ...rest } = body;
  applyFieldTable(messagesFields, system === undefined ? rest : { ...rest, system }, request);
  return request;
}
