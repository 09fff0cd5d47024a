/** The Fireworks Completions dialect: `POST /v1/completions`, with all its extensions. */
import { encodeCompletionChunkFrame } from './chunk-frame.js';
import { encodeSseData, sseDone } from '../../streaming/encode-sse.js';
import { isRecord } from '../../model/is-record.js';
import type { Dialect } from '../dialect.js';
import { OPENAI_STREAM_OPTIONS } from '../dialect-wire.js';
import { completionErrorBody } from './error-body.js';
import { parseCompletionsRequest } from './parse-request.js';
import { completionsFields } from './request-fields.js';
import { serializeCompletionResult } from './serialize-result.js';
import { CompletionStreamSerializer } from './serialize-stream.js';

export const fireworksCompletionsDialect: Dialect = {
  name: 'fireworks-completions',
  title: 'OpenAI/Fireworks Completions',
  shortName: 'completions',
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
  // A text, a list or token ids (a Responses `prompt` is a template object).
  recognize: (body) => ('prompt' in body && !isRecord(body.prompt) ? 1 : 0),
  typicalRequest: (model, stream) => ({ model, prompt: 'Say hello.', max_tokens: 16, stream }),
};
