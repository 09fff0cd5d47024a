/** Anthropic's Messages API: `POST /v1/messages` (also `?beta=true`, as Claude Code sends it). */
import { encodeSseEvent } from '../../streaming/encode-sse.js';
import { encodeMessagesEventFrame } from './event-frame.js';
import { messagesErrorBody, messagesErrorStatus } from './error-body.js';
import { parseMessagesRequest } from './parse-request.js';
import { messagesFields } from './request-fields.js';
import { serializeMessagesResult } from './serialize-result.js';
import { MessagesStreamSerializer } from './serialize-stream.js';
import { recognizeMessages } from './recognize.js';
import type { Dialect, ListedModel } from '../dialect.js';

export const anthropicMessagesDialect: Dialect = {
  name: 'anthropic-messages',
  title: 'Anthropic Messages',
  shortName: 'messages',
  path: '/v1/messages',
  endpoint: 'chat',
  document: 'messages',
  // Every event is named (`event: content_block_delta`); the stream ends with message_stop; a silent stream gets `ping` events.
  sse: { frame: encodeMessagesEventFrame, end: '', keepAlive: encodeSseEvent({ type: 'ping' }) },
  fields: messagesFields,
  wire: { form: 'anthropic-messages', conversation: { messages: 'turns', system: 'system' } },
  parseRequest: parseMessagesRequest,
  serializeResult: serializeMessagesResult,
  streamSerializer: (request) => new MessagesStreamSerializer(request),
  errorBody: messagesErrorBody,
  errorStatus: messagesErrorStatus,
  requestIdHeader: 'request-id',
  countTokensPath: '/v1/messages/count_tokens',
  modelList: { header: 'anthropic-version', body: anthropicModelList },
  streamFailure: (error) => encodeSseEvent(messagesErrorBody(error)),
  validationStatus: 400,
  recognize: recognizeMessages,
  typicalRequest: (model, stream) => ({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Say hello.' }], stream }),
};

/** Anthropic's `GET /v1/models` page: every model at once. */
function anthropicModelList(models: readonly ListedModel[]): Record<string, unknown> {
  const data = models.map(({ id }) => ({ type: 'model', id, display_name: id, created_at: '1970-01-01T00:00:00Z' }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}
