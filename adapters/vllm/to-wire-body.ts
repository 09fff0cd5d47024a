/**
 * NeutralRequest -> a body for vLLM's OpenAI-compatible server: `/v1/chat/completions`
 * for chat, `/v1/completions` for text. What each field becomes is the field
 * table's (fields.ts).
 */
import { writeFields } from '../../src/backend/write-fields.js';
import type { ContentPart, NeutralRequest } from '../../src/model/request.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { withStream } from '../openai/wire-formats.js';
import { VLLM_TABLE } from './fields.js';

type Wire = Record<string, unknown>;

export interface VllmWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

/** The content parts this backend takes no form of (built once: toWireBody runs per request). */
const UNSUPPORTED_PARTS: ReadonlySet<ContentPart['type']> = new Set(['file', 'refusal']);

/**
 * @example
 * toWireBody({...emptyRequest('text', 'Qwen/Qwen3-8B'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'Qwen/Qwen3-8B', prompt: 'Once', top_k: 40, repetition_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: VllmWireOptions = {}): Wire {
  const body: Wire =
    request.endpoint === 'chat'
      ? {
          model: request.model,
          messages: toWireMessages(request.messages ?? [], {
            reasoning: false,
            unsupportedParts: UNSUPPORTED_PARTS,
            backend: 'vLLM',
            warnings: request.warnings,
          }),
        }
      : { model: request.model, prompt: request.prompt ?? '' };
  return withStream(writeFields(body, request, VLLM_TABLE), options.stream ?? request.stream !== undefined);
}
