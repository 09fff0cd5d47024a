/**
 * The neutral request fields a backend may or may not take: the keys of every
 * backend's field table (src/backend/field-support.ts). Each says how to read
 * it, whether the request asks for it, how to drop it, and which wire field to
 * name when the request did not record where it came from.
 *
 * Most keys are neutral paths. A few are kinds of value at a path that backends
 * take unevenly (`prompt:tokenIds`, `responseFormat:grammar`).
 */
import type { NeutralPath } from './neutral-path.js';
import { isPromptBatch, isTokenIdPrompt } from './prompt.js';
import type { NeutralRequest, ResponseFormat, Sampling } from './request.js';
import { withoutVendorKey, type VendorName } from './vendor-data.js';

export interface NeutralFieldSpec {
  /** The path whose origin names the caller's field. */
  path: NeutralPath;
  /** The wire field to name when the request recorded no origin. */
  param: string;
  /** The value a backend copies to its wire; undefined when absent (or at a default nothing needs sending). */
  value(request: NeutralRequest): unknown;
  /** Whether the request asks for something a backend without the field cannot give (default: a value is set). */
  asks?(request: NeutralRequest): boolean;
  drop(request: NeutralRequest): void;
  /** Sets another value (a backend's stand-in for the caller's, e.g. a service tier it names differently). */
  set?(request: NeutralRequest, value: unknown): void;
  /** Informational (end-user ids, cache keys): a backend without it goes without, with a warning, never a 400. */
  soft?: boolean;
  /** The caller's name for a field inside the conversation, which `origins` (one per path) cannot tell apart from the conversation itself. */
  named?: string;
}

type Defined<T> = T extends undefined ? never : T;
type SamplingKey = Defined<{ [K in keyof Sampling]: K }[keyof Sampling]>;

const sampling = (key: SamplingKey, param: string): NeutralFieldSpec => ({
  path: `sampling.${key}`,
  param,
  value: (r) => r.sampling[key],
  drop: (r) => {
    delete r.sampling[key];
  },
});

type TopLevel =
  | 'images'
  | 'prediction'
  | 'metadata'
  | 'serviceTier'
  | 'samplingMask'
  | 'promptCacheKey'
  | 'promptCacheIsolationKey'
  | 'user'
  | 'logprobs'
  | 'echo'
  | 'toolChoice'
  | 'parallelToolCalls'
  | 'perfMetricsInBody'
  | 'returnTokenIds'
  | 'store';

const field = (key: TopLevel, param: string, asks?: (request: NeutralRequest) => boolean): NeutralFieldSpec => ({
  path: key,
  param,
  value: (r) => r[key],
  ...(asks ? { asks } : {}),
  drop: (r) => {
    delete r[key];
  },
});

const format = (type: ResponseFormat['type']): NeutralFieldSpec => ({
  path: 'responseFormat',
  param: 'response_format',
  value: (r) => (r.responseFormat?.type === type ? r.responseFormat : undefined),
  // Plain text is every backend's default: it asks for nothing.
  ...(type === 'text' ? { asks: () => false } : {}),
  drop: (r) => {
    delete r.responseFormat;
  },
});

const reasoning = (key: 'effort' | 'budgetTokens' | 'history' | 'budgetEndText', param: string): NeutralFieldSpec => ({
  path: `reasoning.${key}`,
  param,
  value: (r) => r.reasoning?.[key],
  drop: (r) => {
    delete r.reasoning?.[key];
  },
});

/** A key of one vendor's namespace taken out of the request (the namespace replaced: the plan's copy shares it with the caller's request). */
function dropVendorKey(r: NeutralRequest, vendor: VendorName, key: string): void {
  const { vendor: namespaces } = withoutVendorKey(r, vendor, key);
  if (namespaces) r.vendor = namespaces;
  else delete r.vendor;
}

const cached = (holder: { vendor?: { anthropic?: { cacheControl?: unknown } } }): boolean =>
  holder.vendor?.anthropic?.cacheControl !== undefined;

function hasCacheControl(r: NeutralRequest): boolean {
  if (cached(r) || r.tools?.some(cached)) return true;
  return (
    r.messages?.some((message) => (Array.isArray(message.content) && message.content.some(cached)) || message.toolCalls?.some(cached)) ??
    false
  );
}

/** Every breakpoint taken out; what carried one is replaced, never changed in place (the plan's copy shares it with the caller's request). */
function withoutCacheControl(r: NeutralRequest): void {
  const uncached = <T extends Parameters<typeof withoutVendorKey>[0]>(holder: T): T =>
    withoutVendorKey(holder, 'anthropic', 'cacheControl');
  dropVendorKey(r, 'anthropic', 'cacheControl');
  if (r.tools) r.tools = r.tools.map(uncached);
  // Only a message that carries one is copied: a long conversation has a few breakpoints.
  if (r.messages) {
    r.messages = r.messages.map((message) =>
      (Array.isArray(message.content) && message.content.some(cached)) || message.toolCalls?.some(cached)
        ? {
            ...message,
            ...(Array.isArray(message.content) ? { content: message.content.map(uncached) } : {}),
            ...(message.toolCalls ? { toolCalls: message.toolCalls.map(uncached) } : {}),
          }
        : message,
    );
  }
}

/** A value that asks for something: not undefined, null or false (`store: false` asks for nothing). */
const isUsed = (value: unknown): boolean => value !== undefined && value !== null && value !== false;

/** In the order backends write them. */
export const NEUTRAL_FIELDS = {
  'sampling.temperature': sampling('temperature', 'temperature'),
  'sampling.topP': sampling('topP', 'top_p'),
  'sampling.topK': sampling('topK', 'top_k'),
  'sampling.minP': sampling('minP', 'min_p'),
  'sampling.typicalP': sampling('typicalP', 'typical_p'),
  'sampling.presencePenalty': sampling('presencePenalty', 'presence_penalty'),
  'sampling.frequencyPenalty': sampling('frequencyPenalty', 'frequency_penalty'),
  'sampling.repetitionPenalty': sampling('repetitionPenalty', 'repetition_penalty'),
  'sampling.mirostat': sampling('mirostat', 'mirostat_target'),
  'sampling.seed': sampling('seed', 'seed'),
  'sampling.logitBias': sampling('logitBias', 'logit_bias'),
  choices: {
    path: 'choices',
    param: 'n',
    value: (r) => (r.choices === 1 ? undefined : r.choices),
    drop: (r) => {
      r.choices = 1;
    },
  },
  'limits.stop': {
    path: 'limits.stop',
    param: 'stop',
    value: (r) => (r.limits.stop.length > 0 ? [...r.limits.stop] : undefined),
    drop: (r) => {
      r.limits.stop = [];
    },
  },
  'limits.maxTokens': {
    path: 'limits.maxTokens',
    param: 'max_tokens',
    value: (r) => r.limits.maxTokens,
    drop: (r) => {
      delete r.limits.maxTokens;
    },
  },
  'limits.ignoreEos': {
    path: 'limits.ignoreEos',
    param: 'ignore_eos',
    value: (r) => r.limits.ignoreEos,
    asks: (r) => r.limits.ignoreEos === true,
    drop: (r) => {
      delete r.limits.ignoreEos;
    },
  },
  // 'truncate' is every backend's default; only 'error' asks for something.
  'limits.onContextOverflow': {
    path: 'limits.onContextOverflow',
    param: 'context_length_exceeded_behavior',
    value: (r) => (r.limits.onContextOverflow === 'error' ? 'error' : undefined),
    drop: (r) => {
      r.limits.onContextOverflow = 'truncate';
    },
  },
  echo: field('echo', 'echo'),
  'echo.lastTokens': {
    path: 'echo.lastTokens',
    param: 'echo_last',
    value: (r) => r.echo?.lastTokens,
    drop: (r) => {
      delete r.echo;
    },
  },
  'prompt:tokenIds': { path: 'prompt', param: 'prompt', value: (r) => (isTokenIdPrompt(r.prompt) ? r.prompt : undefined), drop: () => {} },
  'prompt:batch': { path: 'prompt', param: 'prompt', value: (r) => (isPromptBatch(r.prompt) ? r.prompt : undefined), drop: () => {} },
  logprobs: field('logprobs', 'logprobs'),
  tools: {
    path: 'tools',
    param: 'tools',
    value: (r) => (r.tools?.length ? r.tools : undefined),
    drop: (r) => {
      delete r.tools;
    },
  },
  // Custom (free-text) tools: OpenAI takes them; other backends get each as a function with one string parameter, or refuse them.
  'tools:custom': {
    path: 'tools',
    param: 'tools',
    value: (r) => (r.tools?.some((tool) => tool.custom) ? r.tools.filter((tool) => tool.custom) : undefined),
    drop: (r) => {
      r.tools = r.tools?.filter((tool) => !tool.custom);
      if (!r.tools?.length) delete r.tools;
    },
  },
  toolChoice: field('toolChoice', 'tool_choice'),
  parallelToolCalls: field('parallelToolCalls', 'parallel_tool_calls'),
  'responseFormat:text': format('text'),
  'responseFormat:json_object': format('json_object'),
  'responseFormat:json_schema': format('json_schema'),
  'responseFormat:grammar': format('grammar'),
  'reasoning.effort': reasoning('effort', 'reasoning_effort'),
  'reasoning.budgetTokens': reasoning('budgetTokens', 'reasoning_effort'),
  'reasoning.history': reasoning('history', 'reasoning_history'),
  'reasoning.budgetEndText': reasoning('budgetEndText', 'thinking.budget_end_str'),
  prediction: field('prediction', 'prediction'),
  images: field('images', 'images'),
  returnTokenIds: field('returnTokenIds', 'return_token_ids', (r) => r.returnTokenIds === true),
  'stream.tokenIds': {
    path: 'stream.tokenIds',
    param: 'stream_options.include_internal_content',
    value: (r) => (r.stream?.tokenIds ? true : undefined),
    drop: (r) => {
      if (r.stream) r.stream.tokenIds = false;
    },
  },
  // Fireworks' (vendor-data.ts), given a fate here so that no backend drops it silently.
  rawOutput: {
    path: 'vendor.fireworks.rawOutput',
    param: 'raw_output',
    value: (r) => r.vendor?.fireworks?.rawOutput,
    asks: (r) => r.vendor?.fireworks?.rawOutput === true,
    drop: (r) => dropVendorKey(r, 'fireworks', 'rawOutput'),
  },
  perfMetricsInBody: field('perfMetricsInBody', 'perf_metrics_in_response'),
  samplingMask: field('samplingMask', 'sampling_mask'),
  promptCacheIsolationKey: field('promptCacheIsolationKey', 'prompt_cache_isolation_key'),
  metadata: field('metadata', 'metadata'),
  store: field('store', 'store', (r) => isUsed(r.store)),
  // 'auto' and 'default' ask for the standard tier, which every backend is: only other tiers ask for something.
  serviceTier: {
    ...field('serviceTier', 'service_tier', (r) => r.serviceTier !== undefined && r.serviceTier !== 'auto' && r.serviceTier !== 'default'),
    set: (r, value) => {
      r.serviceTier = value as string;
    },
  },
  user: { ...field('user', 'user'), soft: true },
  promptCacheKey: { ...field('promptCacheKey', 'prompt_cache_key'), soft: true },
  // Anthropic's (vendor-data.ts), given a fate here so that no backend drops them silently.
  // Caching breakpoints (`cache_control`) on the request, its tools and its parts: hints a backend without them goes without.
  cacheControl: {
    path: 'vendor.anthropic.cacheControl',
    param: 'cache_control',
    value: (r) => (hasCacheControl(r) ? true : undefined),
    drop: withoutCacheControl,
    soft: true,
  },
  contextManagement: {
    path: 'vendor.anthropic.contextManagement',
    param: 'context_management',
    value: (r) => r.vendor?.anthropic?.contextManagement,
    drop: (r) => dropVendorKey(r, 'anthropic', 'contextManagement'),
    soft: true,
  },
  // A tool result marked as a failure (Anthropic's `is_error`): the result itself still goes.
  toolError: {
    path: 'messages',
    param: 'is_error',
    named: 'is_error',
    value: (r) => (r.messages?.some((message) => message.toolError) ? true : undefined),
    drop: (r) => {
      if (r.messages) r.messages = r.messages.map(({ toolError: _dropped, ...message }) => message);
    },
    soft: true,
  },
} as const satisfies Record<string, NeutralFieldSpec>;

export type NeutralField = keyof typeof NEUTRAL_FIELDS;

export const NEUTRAL_FIELD_NAMES = Object.keys(NEUTRAL_FIELDS) as readonly NeutralField[];

/** Whether the request asks for the field. */
export function asksFor(request: NeutralRequest, field: NeutralField): boolean {
  const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
  return spec.asks ? spec.asks(request) : spec.value(request) !== undefined;
}

/**
 * The caller's name for a field: the wire field that set its path (or a part
 * of it: `mirostat_target` for `sampling.mirostat`), else the usual wire name.
 */
export function paramOf(request: NeutralRequest, field: NeutralField): string {
  const { path, param, named }: NeutralFieldSpec = NEUTRAL_FIELDS[field];
  if (named !== undefined) return named;
  const origins = request.origins as Record<string, string | undefined>;
  return origins[path] ?? Object.entries(origins).find(([key]) => key.startsWith(`${path}.`))?.[1] ?? param;
}

/** The caller's name for a field relayed as it is (`passthrough`): the Responses API's `text.verbosity` is relayed as `verbosity`. */
export function relayedParamOf(request: NeutralRequest, key: string): string {
  return request.origins[`passthrough.${key}`] ?? key;
}
