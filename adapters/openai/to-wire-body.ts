/**
 * NeutralRequest -> a strict OpenAI body: `/chat/completions` for chat, and the legacy `/completions`
 * for text (when the backend is configured to speak it). A field OpenAI cannot take is a 400 naming
 * the caller's field (fields.ts).
 */
import type { NeutralRequest } from '../../src/model/request.js';
import { compatibleWireBody, type WireBodySpec } from './compatible-wire-body.js';
import { OPENAI_TABLE } from './fields.js';

export interface OpenAIWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

const OPENAI_BODY: WireBodySpec = { backend: 'OpenAI', table: OPENAI_TABLE, reasoning: false, unsupportedParts: new Set(['video']) };

/**
 * @example
 * toWireBody({...emptyRequest('chat', 'gpt-4o'), messages: [{role: 'user', content: 'Hi'}], limits: {stop: [], maxTokens: 5, onContextOverflow: 'truncate'}})
 * // {model: 'gpt-4o', messages: [{role: 'user', content: 'Hi'}], max_completion_tokens: 5}
 */
export function toWireBody(request: NeutralRequest, options: OpenAIWireOptions = {}): Record<string, unknown> {
  return compatibleWireBody(request, OPENAI_BODY, options.stream);
}
