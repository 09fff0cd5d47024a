/** NeutralRequest -> a body for vLLM's OpenAI-compatible server: `/v1/chat/completions` for chat, `/v1/completions` for text. */
import type { NeutralRequest } from '../../src/model/request.js';
import { compatibleWireBody, type WireBodySpec } from '../openai/compatible-wire-body.js';
import { VLLM_TABLE } from './fields.js';

export interface VllmWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

const VLLM_BODY: WireBodySpec = { backend: 'vLLM', table: VLLM_TABLE, reasoning: false, unsupportedParts: new Set(['file', 'refusal']) };

/**
 * @example
 * toWireBody({...emptyRequest('text', 'Qwen/Qwen3-8B'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'Qwen/Qwen3-8B', prompt: 'Once', top_k: 40, repetition_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: VllmWireOptions = {}): Record<string, unknown> {
  return compatibleWireBody(request, VLLM_BODY, options.stream);
}
