/** The OpenAI Chat Completions dialect: `POST /v1/chat/completions`. */
import { encodeChatChunkFrame } from './chunk-frame.js';
import { encodeSseData, sseDone } from '../../streaming/encode-sse.js';
import type { Dialect } from '../dialect.js';
import { OPENAI_STREAM_OPTIONS } from '../dialect-wire.js';
import { chatErrorBody } from './error-body.js';
import { parseChatRequest } from './parse-request.js';
import { chatFields } from './request-fields.js';
import { serializeChatResult } from './serialize-result.js';
import { ChatStreamSerializer } from './serialize-stream.js';

export const openaiChatDialect: Dialect = {
  name: 'openai-chat',
  title: 'OpenAI Chat Completions',
  shortName: 'chat',
  path: '/v1/chat/completions',
  endpoint: 'chat',
  document: 'chat',
  // `data:` frames (a text delta written without stringifying the whole chunk), then `[DONE]`.
  sse: { frame: encodeChatChunkFrame, end: sseDone },
  fields: chatFields,
  wire: { form: 'openai', conversation: { messages: 'turns' }, streamOptions: OPENAI_STREAM_OPTIONS },
  parseRequest: parseChatRequest,
  serializeResult: serializeChatResult,
  streamSerializer: (request) => new ChatStreamSerializer(request),
  errorBody: chatErrorBody,
  streamFailure: (error) => encodeSseData(chatErrorBody(error)) + sseDone,
  validationStatus: 400,
  // Messages' bodies have `messages` too: that dialect tells its own apart by what only Anthropic's have.
  recognize: (body) => ('messages' in body ? 1 : 0),
  typicalRequest: (model, stream) => ({
    model,
    messages: [{ role: 'user', content: 'Say hello.' }],
    max_tokens: 16,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  }),
};
