/**
 * `kind: vllm`: vLLM's OpenAI-compatible server, `/v1/chat/completions` and
 * `/v1/completions` with the extra parameters its protocol declares
 * (vllm/entrypoints/openai/{chat_completion,completion}/protocol.py).
 */
import { defineOpenAICompatibleKind } from '../openai/openai-compatible-kind.js';
import { VLLM_EFFORTS, VLLM_TABLE } from './fields.js';
import { toWireBody } from './to-wire-body.js';
import { vllmExtras } from './wire-extras.js';
import { VLLM_TOKEN_COUNT } from '../token-count-endpoint.js';

const vllm = defineOpenAICompatibleKind({
  name: 'vllm',
  table: VLLM_TABLE,
  speaks: ['completions', 'chat'],
  // The server's `--max-logprobs`, 20 unless configured.
  maxTopLogprobs: 20,
  efforts: VLLM_EFFORTS,
  toWireBody,
  extras: vllmExtras,
  tokenCount: VLLM_TOKEN_COUNT,
});

export const vllmKind = vllm.kind;
export const vllmCapabilities = vllm.capabilities;

/**
 * @example
 * const vllm = createVllmAdapter({ kind: 'vllm', url: 'http://gpu-1:8000/v1' }, { name: 'gpu' });
 * for await (const batch of vllm.stream(request, { signal, requestId: 'req-1' })) { ... } // each packet's events
 */
export const createVllmAdapter = vllm.createAdapter;
