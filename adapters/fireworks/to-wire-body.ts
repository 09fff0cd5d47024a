/** NeutralRequest -> a Fireworks body for `/completions` (text) or `/chat/completions` (chat). */
import type { NeutralRequest } from '../../src/model/request.js';
import { compatibleWireBody, type WireBodySpec } from '../openai/compatible-wire-body.js';
import { FIREWORKS_TABLE } from './fields.js';

export interface FireworksWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

const FIREWORKS_BODY: WireBodySpec = {
  backend: 'Fireworks',
  table: FIREWORKS_TABLE,
  reasoning: true,
  unsupportedParts: new Set(['audio', 'file', 'refusal']),
  // Token ids on each delta, when the caller asked for them.
  streamOptions: (request) => (request.stream?.tokenIds ? { include_internal_content: true } : {}),
};

/**
 * @example
 * toWireBody({...emptyRequest('text', 'accounts/fireworks/models/x'), prompt: 'Once', sampling: {topK: 40}})
 * // {model: 'accounts/fireworks/models/x', prompt: 'Once', top_k: 40}
 */
export function toWireBody(request: NeutralRequest, options: FireworksWireOptions = {}): Record<string, unknown> {
  return compatibleWireBody(request, FIREWORKS_BODY, options.stream);
}
