/**
 * NeutralRequest -> the body of Anthropic's `POST /v1/messages`: the fixed part
 * (model, the required `max_tokens`, system and messages), then what the field
 * table writes (fields.ts). A completions request never reaches it: the plan
 * renders a prompt as one user message first.
 */
import type { BackendTable, WireBody } from '../../src/backend/field-support.js';
import { writeFields } from '../../src/backend/write-fields.js';
import { internalError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { ANTHROPIC_DEFAULTS } from './settings.js';
import { toWireMessages } from './to-wire-messages.js';

export interface AnthropicWireOptions {
  /** The backend's table (anthropicTable, with its settings). */
  table: BackendTable;
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** `max_tokens` when the caller gives none. */
  defaultMaxTokens?: number;
}

/**
 * @example
 * toWireBody({...emptyRequest('chat', 'claude-sonnet-4-5'), messages: [{role: 'user', content: 'Hi'}]}, {table})
 * // {model: 'claude-sonnet-4-5', max_tokens: 4096, messages: [{role: 'user', content: 'Hi'}]}
 */
export function toWireBody(request: NeutralRequest, options: AnthropicWireOptions): WireBody {
  if (request.endpoint !== 'chat')
    throw internalError('The Anthropic Messages API takes chat only; the plan should have rendered the prompt.');
  const { system, messages } = toWireMessages(request.messages ?? [], request.warnings);
  // The caller's max_tokens replaces it (the table copies it); a thinking budget may raise it.
  const fallback = options.defaultMaxTokens ?? ANTHROPIC_DEFAULTS.defaultMaxTokens;
  const body: WireBody = { model: request.model, max_tokens: fallback };
  if (system) body.system = system;
  body.messages = messages;
  writeFields(body, request, options.table);
  // A cap the caller did not set is a change they should see: Anthropic requires one.
  if (request.limits.maxTokens === undefined) {
    const raised = body.max_tokens === fallback ? '' : ` plus the thinking budget`;
    request.warnings.push(
      `max_tokens was sent as ${String(body.max_tokens)} (the backend's defaultMaxTokens ${fallback}${raised}): Anthropic requires a cap and the request set none`,
    );
  }
  if (options.stream ?? request.stream !== undefined) body.stream = true;
  return body;
}
