/**
 * A llama-server response body -> NeutralResult: the shared OpenAI-compatible
 * reader (which already takes its chat-shaped logprobs with `id`, `reasoning`
 * and `timings`), then usage over all choices (choice-usage.ts). Its `chatcmpl-`
 * ids on completions (deviation 3) are the dialect's to re-prefix (response-id.ts).
 */
import type { NeutralRequest } from '../../src/model/request.js';
import type { NeutralResult } from '../../src/model/result.js';
import { fromWireResult as fromOpenAICompatibleResult } from '../openai/from-wire-result.js';
import { resultUsage } from './choice-usage.js';

/**
 * @example
 * fromWireResult({id: 'chatcmpl-Ui7s', object: 'text_completion', created: 1, model: 'stories260K',
 *   choices: [{index: 0, text: ', there', finish_reason: 'length'}, {index: 1, text: ', once', finish_reason: 'length'}],
 *   usage: {prompt_tokens: 5, completion_tokens: 2, total_tokens: 7}}, {...request, choices: 2})
 * // {id: 'chatcmpl-Ui7s', ..., usage: {promptTokens: 5, completionTokens: 4, totalTokens: 9}}
 */
export function fromWireResult(body: unknown, request: NeutralRequest): NeutralResult {
  const result = fromOpenAICompatibleResult(body, request);
  const usage = resultUsage(result, request);
  if (usage) result.usage = usage;
  return result;
}
