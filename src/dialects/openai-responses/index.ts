/** The OpenAI Responses dialect: `POST /v1/responses`. */
import { encodeSseEvent } from '../../streaming/encode-sse.js';
import type { Dialect } from '../dialect.js';
import { chatErrorBody } from '../openai-chat/error-body.js';
import { parseResponsesRequest } from './parse-request.js';
import { responsesFields } from './request-fields.js';
import { serializeResponsesResult } from './serialize-result.js';
import { ResponsesStreamSerializer } from './serialize-stream.js';
import { RESPONSES_STATE } from './state/responses-state.js';
import { compactVariant } from './compact.js';
import { responsesEventFrame } from './event-frame.js';

const responses: Dialect = {
  name: 'openai-responses',
  title: 'OpenAI Responses',
  shortName: 'responses',
  path: '/v1/responses',
  endpoint: 'chat',
  document: 'responses',
  // Every event is named (`event: response.output_text.delta`); the stream ends with response.completed, not [DONE].
  sse: { frame: responsesEventFrame, end: '' },
  fields: responsesFields,
  wire: {
    form: 'openai-responses',
    conversation: { input: 'turns', instructions: 'system' },
    // Repeated in the Response object (include: its reasoning items), not sent upstream.
    keptByTheProxy: ['include', 'max_tool_calls', 'metadata', 'reasoning', 'text'],
  },
  parseRequest: parseResponsesRequest,
  serializeResult: serializeResponsesResult,
  streamSerializer: (request, context) => new ResponsesStreamSerializer(request, context),
  // OpenAI's error shape, as on chat.
  errorBody: chatErrorBody,
  streamFailure: (error) =>
    encodeSseEvent({ type: 'error', code: error.code ?? error.type, message: error.message, param: error.param, sequence_number: 0 }),
  validationStatus: 400,
  state: RESPONSES_STATE,
  recognize: (body) => ('input' in body || 'instructions' in body ? 1 : 0),
  typicalRequest: (model, stream) => ({ model, input: 'Say hello.', max_output_tokens: 16, store: false, stream }),
};

export const openaiResponsesDialect: Dialect = { ...responses, variants: [compactVariant(responses)] };
