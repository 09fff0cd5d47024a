/** The Fireworks Completions dialect: `POST /v1/completions`, with all its extensions. */
import { encodeCompletionChunkFrame } from './chunk-frame.js';
import { encodeSseData, sseDone } from '../../streaming/encode-sse.js';
import type { Dialect } from '../dialect.js';
import { OPENAI_STREAM_OPTIONS } from '../dialect-wire.js';
import { completionErrorBody } from './error-body.js';
import { parseCompletionsRequest } from './parse-request.js';
import { completionsFields } from './request-fields.js';
import { serializeCompletionResult } from './serialize-result.js';
import { CompletionStreamSerializer } from './serialize-stream.js';

export const fireworksCompletionsDialect: Dialect = {
  name: 'fireworks-completions',
  path: '/v1/completions',
  endpoint: 'text',
  document: 'text',
  // `data:` frames (a text delta written without stringifying the whole chunk), then `[DONE]`.
  sse: { frame: encodeCompletionChunkFrame, end: sseDone },
  fields: completionsFields,
  wire: { form: 'openai', conversation: { prompt: 'turns' }, streamOptions: OPENAI_STREAM_OPTIONS },
  parseRequest: parseCompletionsRequest,
  serializeResult: serializeCompletionResult,
  streamSerializer: (request) => new CompletionStreamSerializer(request),
  errorBody: completionErrorBody,
  streamFailure: (error) => encodeSseData(completionErrorBody(error)) + sseDone,
  // The seed's validation status.
  validationStatus: 422,
};
