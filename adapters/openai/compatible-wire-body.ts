/**
 * NeutralRequest -> the body of an OpenAI-compatible server: `/chat/completions` for chat, `/completions`
 * for text. The kinds (openai, fireworks, vllm, llama-server) differ only in data, their `WireBodySpec`:
 * what each field becomes is their field table's, and a streamed body always asks
 * `stream_options.include_usage`, so usage can be logged.
 */
import type { BackendTable } from '../../src/backend/field-support.js';
import { writeFields } from '../../src/backend/write-fields.js';
import type { ContentPart, NeutralRequest } from '../../src/model/request.js';
import { toWireMessages } from './to-wire-messages.js';
import { withStream } from './wire-formats.js';

type Wire = Record<string, unknown>;

export interface WireBodySpec {
  /** The server as errors name it (`vLLM`). */
  backend: string;
  table: BackendTable;
  /** An assistant's earlier reasoning goes back to it (`reasoning_content`). */
  reasoning: boolean;
  /** The content parts it has no form of: a 400 naming the part (built once: a body is written per request). */
  unsupportedParts: ReadonlySet<ContentPart['type']>;
  /** `stream_options` of its own beside `include_usage`, for this request. */
  streamOptions?(request: NeutralRequest): Wire;
}

/** `stream`: a streamed body? Default: whether the request asks for a stream. */
export function compatibleWireBody(request: NeutralRequest, spec: WireBodySpec, stream = request.stream !== undefined): Wire {
  const body: Wire =
    request.endpoint === 'chat'
      ? {
          model: request.model,
          messages: toWireMessages(request.messages ?? [], {
            reasoning: spec.reasoning,
            unsupportedParts: spec.unsupportedParts,
            backend: spec.backend,
            warnings: request.warnings,
          }),
        }
      : { model: request.model, prompt: request.prompt ?? '' };
  writeFields(body, request, spec.table);
  return withStream(body, stream, spec.streamOptions?.(request));
}
