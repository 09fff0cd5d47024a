/** The Fireworks Completions dialect: `POST /v1/completions`, with all its extensions. */
import type { Dialect } from '../dialect.js';
import { completionErrorBody } from './error-body.js';
import { parseCompletionsRequest } from './parse-request.js';
import { completionsFields } from './request-fields.js';
import { serializeCompletionResult } from './serialize-result.js';
import { serializeCompletionStream } from './serialize-stream.js';

export const fireworksCompletionsDialect: Dialect = {
  name: 'fireworks-completions',
  path: '/v1/completions',
  endpoint: 'text',
  fields: completionsFields,
  parseRequest: parseCompletionsRequest,
  serializeResult: serializeCompletionResult,
  serializeStream: serializeCompletionStream,
  errorBody: completionErrorBody,
  // The seed's validation status.
  validationStatus: 422,
};
