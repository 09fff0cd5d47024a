/**
 * NeutralRequest -> a Fireworks body for `/completions` (text) or
 * `/chat/completions` (chat). What each field becomes is the field table's
 * (fields.ts).
 */
import { writeFields } from '../../src/backend/write-fields.js';
import type { ContentPart, NeutralRequest } from '../../src/model/request.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { withStream } from '../openai/wire-formats.js';
import { FIREWORKS_TABLE } from './fields.js';

type Wire = Record<string, unknown>;

export interface FireworksWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

/** The content parts this backend takes no form of (built once: toWireBody runs per request). */
const UNSUPPORTED_PARTS: ReadonlySet<ContentPart['type']> = new Set(['audio', 'file', 'refusal']);

/**
 * @example
 * toWireBody({...emptyRequest('text', 'accounts/fireworks/models/x'), prompt: 'Once', sampling: {topK: 40}})
 * // {model: 'accounts/fireworks/models/x', prompt: 'Once', top_k: 40}
 */
export function toWireBody(request: NeutralRequest, options: FireworksWireOptions = {}): Wire {
  const body: Wire =
    request.endpoint === 'chat'
      ? {
          model: request.model,
          messages: toWireMessages(request.messages ?? [], {
            reasoning: true,
            unsupportedParts: UNSUPPORTED_PARTS,
            backend: 'Fireworks',
            warnings: request.warnings,
          }),
        }
      : { model: request.model, prompt: request.prompt ?? '' };
  writeFields(body, request, FIREWORKS_TABLE);
  return withStream(
    body,
    options.stream ?? request.stream !== undefined,
    request.stream?.tokenIds ? { include_internal_content: true } : {},
  );
}
