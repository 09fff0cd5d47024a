/** llama-server names every response `chatcmpl-...`, completions too (captures README, deviation 3). */
import type { NeutralRequest } from '../../src/model/request.js';

/**
 * A completion's id in OpenAI's `cmpl-` form; chat ids are left as they are.
 * @example completionId('chatcmpl-Ui7s', textRequest) // 'cmpl-Ui7s'
 */
export function completionId(id: string, request: NeutralRequest): string {
  return request.endpoint === 'text' && id.startsWith('chatcmpl-') ? `cmpl-${id.slice('chatcmpl-'.length)}` : id;
}
