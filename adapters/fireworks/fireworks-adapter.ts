/** `kind: fireworks`: `/completions` and `/chat/completions` with every Fireworks extension. */
import type { Adapter, BackendCapabilities, Feature } from '../adapter.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import type { RemoteBackendConfig } from '../remote-backend-config.js';
import { fromWireChunks } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { FIREWORKS_PASSTHROUGH, toWireBody } from './to-wire-body.js';

/** Every neutral feature but `store` (no such Fireworks field) and `audio` (Fireworks takes no audio parts). */
export const FIREWORKS_FEATURES: readonly Feature[] = [
  'topK', 'minP', 'typicalP', 'repetitionPenalty', 'mirostat', 'logitBias', 'seed',
  'ignoreEos', 'contextOverflowError', 'echo', 'tokenIdPrompt', 'promptBatch',
  'logprobs', 'tools', 'jsonObject', 'jsonSchema', 'grammar',
  'reasoningEffort', 'reasoningBudget', 'reasoningHistory',
  'prediction', 'images', 'returnTokenIds', 'streamTokenIds', 'rawOutput', 'samplingMask',
  'promptCacheIsolationKey', 'metadata', 'serviceTier', 'user', 'promptCacheKey',
];

export const FIREWORKS_EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max', 'none', 'adaptive'];

export function fireworksCapabilities(config: RemoteBackendConfig): BackendCapabilities {
  return {
    speaks: config.speaks ?? ['completions', 'chat'],
    features: new Set(FIREWORKS_FEATURES),
    // The deployment's `--max-logprobs`, 5 unless configured.
    maxTopLogprobs: config.maxTopLogprobs ?? 5,
    nativeChoices: true,
    efforts: new Set(FIREWORKS_EFFORTS),
    passthroughFields: FIREWORKS_PASSTHROUGH,
  };
}

/**
 * @example
 * const fireworks = createFireworksAdapter({ kind: 'fireworks', url: 'https://api.fireworks.ai/inference/v1', apiKey: process.env.FIREWORKS_API_KEY });
 * for await (const event of fireworks.stream(request, { signal, requestId: 'req-1' })) { ... }
 */
export function createFireworksAdapter(config: RemoteBackendConfig, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'fireworks',
    config,
    capabilities: fireworksCapabilities(config),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult,
      fromWireChunks,
    },
  });
}
