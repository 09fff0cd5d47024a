/**
 * OpenAI chat wire body (already validated against config/openapi/openai-chat.yaml)
 * -> NeutralRequest. Cross-field rules first, then one table row per field.
 */
import { emptyRequest, type NeutralRequest } from '../../model/request.js';
import { applyFieldTable } from '../field-table.js';
import { applyCrossFieldRules, type RequestHeaders } from '../cross-field-rules.js';
import { chatCrossFieldRules, chatFields } from './request-fields.js';

/**
 * @example parseChatRequest({model: 'm', messages: [{role: 'user', content: 'Hi'}]}, {'x-session-affinity': 's1'})
 */
export function parseChatRequest(body: Record<string, unknown>, headers: RequestHeaders = {}): NeutralRequest {
  const request = emptyRequest('chat');
  applyCrossFieldRules(chatCrossFieldRules, { body, headers, request });
  applyFieldTable(chatFields, body, request);
  return request;
}
