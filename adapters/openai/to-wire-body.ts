/**
 * NeutralRequest -> a strict OpenAI body: `/chat/completions` for chat, and the
 * legacy `/completions` for text (when the backend is configured to speak it).
 * What each field becomes is the field table's (fields.ts); a field OpenAI
 * cannot take is a 400 naming the caller's field. A streamed body always asks
 * `stream_options.include_usage`, so usage can be logged.
 */
import { writeFields } from '../../src/backend/write-fields.js';
import type { ContentPart, NeutralRequest } from '../../src/model/request.js';
import { OPENAI_TABLE } from './fields.js';
import { toWireMessages } from './to-wire-messages.js';
import { withStream } from './wire-formats.js';

type Wire = Record<string, unknown>;

export interface OpenAIWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

/** The content parts this backend takes no form of (built once: toWireBody runs per request). */
const UNSUPPORTED_PARTS: ReadonlySet<ContentPart['type']> = new Set(['video']);

/**
 * @example
 * toWireBody({...emptyRequest('chat', 'gpt-4o'), messages: [{role: 'user', content: 'Hi'}], limits: {stop: [], maxTokens: 5, onContextOverflow: 'truncate'}})
 * // {model: 'gpt-4o', messages: [{role: 'user', content: 'Hi'}], max_completion_tokens: 5}
 */
export function toWireBody(request: NeutralRequest, options: OpenAIWireOptions = {}): Wire {
  const body: Wire =
    request.endpoint === 'chat'
      ? {
          model: request.model,
          messages: toWireMessages(request.messages ?? [], {
            reasoning: false,
            unsupportedParts: UNSUPPORTED_PARTS,
            backend: 'OpenAI',
            warnings: request.warnings,
          }),
        }
      : { model: request.model, prompt: request.prompt ?? '' };
  return withStream(writeFields(body, request, OPENAI_TABLE), options.stream ?? request.stream !== undefined);
}
