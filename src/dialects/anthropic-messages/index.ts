/** Anthropic's Messages API: `POST /v1/messages` (also `?beta=true`, as Claude Code sends it). */
import { encodeSseEvent } from '../../streaming/encode-sse.js';
import type { Dialect } from '../dialect.js';
import { messagesErrorBody, messagesErrorStatus } from './error-body.js';
import { parseMessagesRequest } from './parse-request.js';
import { messagesFields } from './request-fields.js';
import { serializeMessagesResult } from './serialize-result.js';
import { MessagesStreamSerializer } from './serialize-stream.js';

export const anthropicMessagesDialect: Dialect = {
  name: 'anthropic-messages',
  path: '/v1/messages',
  endpoint: 'chat',
  document: 'messages',
  // Every event is named (`event: content_block_delta`); the stream ends with message_stop; a silent stream gets `ping` events.
  sse: { frame: encodeSseEvent, end: '', keepAlive: encodeSseEvent({ type: 'ping' }) },
  fields: messagesFields,
  parseRequest: parseMessagesRequest,
  serializeResult: serializeMessagesResult,
  streamSerializer: (request) => new MessagesStreamSerializer(request),
  errorBody: messagesErrorBody,
  errorStatus: messagesErrorStatus,
  requestIdHeader: 'request-id',
  countTokensPath: '/v1/messages/count_tokens',
  streamFailure: (error) => encodeSseEvent(messagesErrorBody(error)),
  validationStatus: 400,
};
