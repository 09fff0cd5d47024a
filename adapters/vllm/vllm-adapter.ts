/**
 * `kind: vllm`: vLLM's OpenAI-compatible server, `/v1/chat/completions` and
 * `/v1/completions` with the extra parameters its protocol declares
 * (vllm/entrypoints/openai/{chat_completion,completion}/protocol.py).
 */
import type { Adapter, BackendCapabilities, Feature } from '../adapter.js';
import { fromWireChunks } from '../openai/from-wire-chunks.js';
import { fromWireResult } from '../openai/from-wire-result.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import type { RemoteBackendConfig } from '../remote-backend-config.js';
import { toWireBody } from './to-wire-body.js';
import { vllmExtras } from './wire-extras.js';

/**
 * Honoured on both endpoints. `contextOverflowError` is vLLM's own behaviour: a prompt plus
 * max_tokens over `max_model_len` is a 400. `tools` need the server started with
 * `--enable-auto-tool-choice` and a `--tool-call-parser` (else vLLM answers 400 itself).
 * Not here, and why (vLLM has no such field; unknown fields are only logged):
 * typicalP, mirostat, reasoningBudget/History, prediction, images (top-level),
 * rawOutput, samplingMask, metadata, store, serviceTier, audio.
 */
export const VLLM_FEATURES: readonly Feature[] = [
  'topK', 'minP', 'repetitionPenalty', 'logitBias', 'seed', 'ignoreEos', 'contextOverflowError',
  'logprobs', 'tools', 'jsonObject', 'jsonSchema', 'grammar', 'reasoningEffort',
  'returnTokenIds', 'streamTokenIds', 'promptCacheIsolationKey', 'user',
];

/** What `/v1/completions` adds: `echo` (prompt logprobs included), token-id prompts and batches. */
export const VLLM_COMPLETIONS_FEATURES: readonly Feature[] = ['echo', 'tokenIdPrompt', 'promptBatch'];

/** `reasoning_effort: Literal["low", "medium", "high"]`, handed to the chat template. */
export const VLLM_EFFORTS: readonly string[] = ['low', 'medium', 'high'];

/** The remote settings this kind reads (RemoteBackendConfig's `kind` does not name it). */
export type VllmConfig = Omit<RemoteBackendConfig, 'kind'>;

export function vllmCapabilities(config: VllmConfig): BackendCapabilities {
  const speaks = config.speaks ?? ['completions', 'chat'];
  return {
    speaks,
    features: new Set<Feature>([...VLLM_FEATURES, ...(speaks.includes('completions') ? VLLM_COMPLETIONS_FEATURES : [])]),
    // The server's `--max-logprobs`, 20 unless configured.
    maxTopLogprobs: config.maxTopLogprobs ?? 20,
    nativeChoices: true,
    efforts: new Set(VLLM_EFFORTS),
    passthroughFields: new Set(),
  };
}

/**
 * @example
 * const vllm = createVllmAdapter({ url: 'http://gpu-1:8000/v1' }, { name: 'gpu' });
 * for await (const event of vllm.stream(request, { signal, requestId: 'req-1' })) { ... }
 */
export function createVllmAdapter(config: VllmConfig, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'vllm',
    // The remote adapter reads url, apiKey, headers and timeoutMs, never `kind`.
    config: config as RemoteBackendConfig,
    capabilities: vllmCapabilities(config),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult: (body, request) => fromWireResult(body, request, vllmExtras),
      fromWireChunks: (messages, request) => fromWireChunks(messages, request, vllmExtras),
    },
  });
}
