/**
 * `kind: openai`: strict OpenAI. Fields OpenAI does not accept are never sent;
 * the capabilities tell the plan which neutral features to reject (or drop)
 * first. Also fits servers that follow OpenAI's wire (llama.cpp's server, vLLM).
 */
import type { Adapter, BackendCapabilities, Feature } from '../adapter.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import type { RemoteBackendConfig } from '../remote-backend-config.js';
import { fromWireChunks } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { OPENAI_PASSTHROUGH, toWireBody } from './to-wire-body.js';

/**
 * What OpenAI's chat endpoint takes. Not here: topK, minP, typicalP, repetitionPenalty,
 * mirostat, ignoreEos, grammar, reasoningBudget/History, returnTokenIds, rawOutput,
 * samplingMask, promptCacheIsolationKey, streamTokenIds; nor `images`, which is the
 * Fireworks top-level field (OpenAI takes images as content parts, which pass anyway).
 * `contextOverflowError` is OpenAI's own behaviour: it answers 400 when the prompt does not fit.
 */
export const OPENAI_FEATURES: readonly Feature[] = [
  'seed', 'logitBias', 'logprobs', 'tools', 'jsonObject', 'jsonSchema', 'reasoningEffort', 'prediction',
  'audio', 'metadata', 'store', 'serviceTier', 'contextOverflowError', 'user', 'promptCacheKey',
];

/** What the legacy `/completions` adds, for a backend configured with `speaks: [completions]`. */
export const OPENAI_COMPLETIONS_FEATURES: readonly Feature[] = ['echo', 'tokenIdPrompt', 'promptBatch'];

export const OPENAI_EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

export function openAICapabilities(config: RemoteBackendConfig): BackendCapabilities {
  const speaks = config.speaks ?? ['chat'];
  return {
    speaks,
    features: new Set<Feature>([...OPENAI_FEATURES, ...(speaks.includes('completions') ? OPENAI_COMPLETIONS_FEATURES : [])]),
    maxTopLogprobs: config.maxTopLogprobs ?? 20,
    nativeChoices: true,
    efforts: new Set(OPENAI_EFFORTS),
    passthroughFields: OPENAI_PASSTHROUGH,
  };
}

/**
 * @example
 * const openai = createOpenAIAdapter({ kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY });
 * const result = await openai.complete(request, { signal, requestId: 'req-1' });
 */
export function createOpenAIAdapter(config: RemoteBackendConfig, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'openai',
    config,
    capabilities: openAICapabilities(config),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult,
      fromWireChunks,
    },
  });
}
