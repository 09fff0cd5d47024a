/**
 * Which optional backend features a neutral request uses, one row per feature.
 * The plan step checks each row against the backend's capabilities: a use the
 * backend lacks is a 400 naming the caller's field, or, with
 * `dropUnsupported`, removed and named in `x-dialect-warnings`.
 */
import type { Feature } from '../../adapters/adapter.js';
import type { NeutralRequest } from '../model/request.js';

export interface FeatureUse {
  feature: Feature;
  /**
   * Informational fields (end-user ids, cache keys) a backend without them can
   * go without: they are dropped with a warning, never a 400.
   */
  soft?: boolean;
  /** The wire field to name when the request did not record its origin. */
  param: string;
  /** Neutral path whose origin names the caller's field. */
  path: string;
  present(request: NeutralRequest): boolean;
  drop(request: NeutralRequest): void;
}

const isTokenIds = (prompt: NeutralRequest['prompt']) => Array.isArray(prompt) && prompt.some((item) => typeof item === 'number' || Array.isArray(item));
const formatIs = (type: string) => (request: NeutralRequest) => request.responseFormat?.type === type;

function sampling(feature: Feature, key: keyof NeutralRequest['sampling'], param: string): FeatureUse {
  return {
    feature, param, path: `sampling.${key}`,
    present: (request) => request.sampling[key] !== undefined,
    drop: (request) => { delete request.sampling[key]; },
  };
}

function field(feature: Feature, key: keyof NeutralRequest, param: string, present?: (request: NeutralRequest) => boolean): FeatureUse {
  return {
    feature, param, path: key,
    present: present ?? ((request) => request[key] !== undefined),
    drop: (request) => { delete request[key]; },
  };
}

export const featureUses: readonly FeatureUse[] = [
  sampling('topK', 'topK', 'top_k'),
  sampling('minP', 'minP', 'min_p'),
  sampling('typicalP', 'typicalP', 'typical_p'),
  sampling('repetitionPenalty', 'repetitionPenalty', 'repetition_penalty'),
  sampling('mirostat', 'mirostat', 'mirostat_target'),
  sampling('logitBias', 'logitBias', 'logit_bias'),
  sampling('seed', 'seed', 'seed'),
  { feature: 'ignoreEos', param: 'ignore_eos', path: 'limits.ignoreEos', present: (r) => r.limits.ignoreEos === true, drop: (r) => { delete r.limits.ignoreEos; } },
  { feature: 'contextOverflowError', param: 'context_length_exceeded_behavior', path: 'limits.onContextOverflow', present: (r) => r.limits.onContextOverflow === 'error', drop: (r) => { r.limits.onContextOverflow = 'truncate'; } },
  field('echo', 'echo', 'echo'),
  field('tokenIdPrompt', 'prompt', 'prompt', (r) => isTokenIds(r.prompt)),
  field('logprobs', 'logprobs', 'logprobs'),
  field('tools', 'tools', 'tools', (r) => Boolean(r.tools?.length)),
  field('jsonObject', 'responseFormat', 'response_format', formatIs('json_object')),
  field('jsonSchema', 'responseFormat', 'response_format', formatIs('json_schema')),
  field('grammar', 'responseFormat', 'response_format', formatIs('grammar')),
  { feature: 'reasoningHistory', param: 'reasoning_history', path: 'reasoning.history', present: (r) => r.reasoning?.history !== undefined, drop: (r) => { delete r.reasoning?.history; } },
  field('prediction', 'prediction', 'prediction'),
  field('images', 'images', 'images'),
  field('returnTokenIds', 'returnTokenIds', 'return_token_ids', (r) => r.returnTokenIds === true),
  { feature: 'streamTokenIds', param: 'stream_options.include_internal_content', path: 'stream.tokenIds', present: (r) => r.stream?.tokenIds === true, drop: (r) => { if (r.stream) r.stream.tokenIds = false; } },
  field('rawOutput', 'rawOutput', 'raw_output', (r) => r.rawOutput === true),
  field('samplingMask', 'samplingMask', 'sampling_mask'),
  field('promptCacheIsolationKey', 'promptCacheIsolationKey', 'prompt_cache_isolation_key'),
  field('metadata', 'metadata', 'metadata'),
  field('store', 'store', 'store'),
  field('serviceTier', 'serviceTier', 'service_tier'),
  { ...field('user', 'user', 'user'), soft: true },
  { ...field('promptCacheKey', 'promptCacheKey', 'prompt_cache_key'), soft: true },
];

/** The caller's name for a feature's field. */
export function paramOf(request: NeutralRequest, use: FeatureUse): string {
  return request.origins[use.path] ?? use.param;
}
