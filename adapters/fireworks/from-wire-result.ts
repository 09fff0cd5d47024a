/** A Fireworks response body (completions or chat) -> NeutralResult: the OpenAI-compatible reader plus Fireworks' extensions. */
import type { NeutralRequest } from '../../src/model/request.js';
import type { NeutralResult } from '../../src/model/result.js';
import { fromWireResult as fromOpenAICompatibleResult } from '../openai/from-wire-result.js';
import { fireworksExtras } from './wire-extras.js';

/**
 * @example
 * fromWireResult({id: 'cmpl-1', object: 'text_completion', created: 1, model: 'm',
 *   choices: [{index: 0, text: ' there', finish_reason: 'length', token_ids: [383]}], perf_metrics: {'prompt-tokens': 5}}, request)
 * // {..., choices: [{index: 0, text: ' there', finishReason: 'length', tokenIds: [383]}], perf: {backend: {'prompt-tokens': 5}}}
 */
export function fromWireResult(body: unknown, request: NeutralRequest): NeutralResult {
  return fromOpenAICompatibleResult(body, request, fireworksExtras);
}
