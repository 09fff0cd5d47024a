/**
 * NeutralRequest -> a body for llama.cpp's server (`llama-server`):
 * `/v1/chat/completions` for chat, `/v1/completions` for text, with its own
 * sampling fields beside OpenAI's. What each field becomes is the field
 * table's (fields.ts).
 */
import { writeFields } from '../../src/backend/write-fields.js';
import type { ContentPart, NeutralRequest } from '../../src/model/request.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { withStream } from '../openai/wire-formats.js';
import { llamaServerTable } from './fields.js';

type Wire = Record<string, unknown>;

export interface LlamaServerWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** The server runs with `--jinja`, so `tools` and `tool_choice` work (without it they are an HTTP 500). */
  jinja?: boolean;
}

const TABLES = { jinja: llamaServerTable({ jinja: true }), plain: llamaServerTable({ jinja: false }) };

/** The content parts this backend takes no form of (built once: toWireBody runs per request). */
const UNSUPPORTED_PARTS: ReadonlySet<ContentPart['type']> = new Set(['video', 'file', 'refusal']);

/**
 * @example
 * toWireBody({...emptyRequest('text', 'stories260K'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'stories260K', prompt: 'Once', top_k: 40, repeat_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: LlamaServerWireOptions = {}): Wire {
  const body: Wire =
    request.endpoint === 'chat'
      ? {
          model: request.model,
          messages: toWireMessages(request.messages ?? [], {
            reasoning: true,
            unsupportedParts: UNSUPPORTED_PARTS,
            backend: 'llama-server',
            warnings: request.warnings,
          }),
        }
      : { model: request.model, prompt: request.prompt ?? '' };
  writeFields(body, request, options.jinja ? TABLES.jinja : TABLES.plain);
  return withStream(body, options.stream ?? request.stream !== undefined);
}
