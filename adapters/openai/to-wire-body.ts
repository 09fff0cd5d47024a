/**
 * NeutralRequest -> a strict OpenAI body: `/chat/completions` for chat, and the
 * legacy `/completions` for text (when the backend is configured to speak it).
 * Only fields OpenAI accepts are ever sent; a neutral feature OpenAI cannot take
 * is a 400 naming the caller's field (reject-unsendable.ts).
 *
 * Choices made here:
 *  - chat sends `max_completion_tokens` (OpenAI deprecated `max_tokens`, and its
 *    reasoning models reject it; vLLM and llama.cpp take both); legacy completions
 *    only know `max_tokens`.
 *  - logprobs: chat always `logprobs: true` + `top_logprobs: N`, whichever shape
 *    the caller used (the dialect answers in kind); legacy completions `logprobs: N`.
 *  - a streamed body always asks `stream_options.include_usage`, so usage can be logged.
 */
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { isUsed, rejectUnsendable, unsendable, type UsageChecks } from '../reject-unsendable.js';
import { echoNeedsTokens } from './split-echo.js';
import { toWireMessages } from './to-wire-messages.js';
import { toWireToolChoice, toWireTools } from './to-wire-tools.js';
import { OPENAI_SAMPLING, samplingOnWire } from '../wire-names.js';

type Wire = Record<string, unknown>;

export interface OpenAIWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** `request.passthrough` fields the backend takes verbatim. Default: OPENAI_PASSTHROUGH. */
  passthroughFields?: ReadonlySet<string>;
}

/** OpenAI chat fields with no neutral meaning, which the chat dialect relays verbatim. */
export const OPENAI_PASSTHROUGH: ReadonlySet<string> = new Set([
  'modalities', 'audio', 'web_search_options', 'verbosity', 'safety_identifier',
  'prompt_cache_retention', 'prompt_cache_options', 'moderation',
]);

const CHAT = 'the OpenAI chat API';
const LEGACY = 'the OpenAI completions API';

/** Neutral features strict OpenAI has no field for, on either endpoint. */
const NEVER: UsageChecks = {
  'sampling.topK': (r) => r.sampling.topK !== undefined,
  'sampling.minP': (r) => r.sampling.minP !== undefined,
  'sampling.typicalP': (r) => r.sampling.typicalP !== undefined,
  'sampling.repetitionPenalty': (r) => r.sampling.repetitionPenalty !== undefined,
  'sampling.mirostat': (r) => r.sampling.mirostat !== undefined,
  'limits.ignoreEos': (r) => r.limits.ignoreEos === true,
  'reasoning.budgetTokens': (r) => r.reasoning?.budgetTokens !== undefined,
  'reasoning.history': (r) => r.reasoning?.history !== undefined,
  'reasoning.budgetEndText': (r) => r.reasoning?.budgetEndText !== undefined,
  images: (r) => r.images !== undefined,
  returnTokenIds: (r) => r.returnTokenIds === true,
  rawOutput: (r) => r.rawOutput === true,
  samplingMask: (r) => r.samplingMask !== undefined,
  promptCacheIsolationKey: (r) => r.promptCacheIsolationKey !== undefined,
  'stream.tokenIds': (r) => r.stream?.tokenIds === true,
};

const CHAT_ONLY: UsageChecks = {
  echo: (r) => r.echo !== undefined,
  // OpenAI predictions are text; token ids are Fireworks' `speculation`.
  prediction: (r) => Array.isArray(r.prediction),
};

/** What legacy `/completions` lacks on top: everything chat-specific. */
const LEGACY_ONLY: UsageChecks = {
  'echo.lastTokens': (r) => r.echo?.lastTokens !== undefined,
  tools: (r) => Boolean(r.tools?.length),
  toolChoice: (r) => r.toolChoice !== undefined,
  parallelToolCalls: (r) => r.parallelToolCalls !== undefined,
  responseFormat: (r) => r.responseFormat !== undefined && r.responseFormat.type !== 'text',
  'reasoning.effort': (r) => r.reasoning?.effort !== undefined,
  prediction: (r) => r.prediction !== undefined,
  metadata: (r) => r.metadata !== undefined,
  store: (r) => isUsed(r.store),
  serviceTier: (r) => r.serviceTier !== undefined,
  promptCacheKey: (r) => r.promptCacheKey !== undefined,
};

/**
 * @example
 * toWireBody({...emptyRequest('chat', 'gpt-4o'), messages: [{role: 'user', content: 'Hi'}], limits: {stop: [], maxTokens: 5, onContextOverflow: 'truncate'}})
 * // {model: 'gpt-4o', messages: [{role: 'user', content: 'Hi'}], max_completion_tokens: 5}
 */
export function toWireBody(request: NeutralRequest, options: OpenAIWireOptions = {}): Wire {
  const stream = options.stream ?? request.stream !== undefined;
  return request.endpoint === 'chat' ? chatBody(request, stream, options.passthroughFields ?? OPENAI_PASSTHROUGH) : legacyBody(request, stream);
}

function chatBody(request: NeutralRequest, stream: boolean, passthroughFields: ReadonlySet<string>): Wire {
  rejectUnsendable(request, { ...NEVER, ...CHAT_ONLY }, CHAT);
  const body: Wire = {
    model: request.model,
    messages: toWireMessages(request.messages ?? [], { reasoning: false, unsupportedParts: new Set(['video']), backend: 'OpenAI', warnings: request.warnings }),
  };
  Object.assign(body, sharedFields(request));
  if (request.limits.maxTokens !== undefined) body.max_completion_tokens = request.limits.maxTokens;
  if (request.logprobs) {
    body.logprobs = true;
    body.top_logprobs = request.logprobs.top;
  }
  if (request.responseFormat) body.response_format = responseFormat(request, request.responseFormat);
  if (request.tools?.length) body.tools = toWireTools(request.tools);
  if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.reasoning?.effort !== undefined) body.reasoning_effort = request.reasoning.effort;
  if (typeof request.prediction === 'string') body.prediction = { type: 'content', content: request.prediction };
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.store !== undefined) body.store = request.store;
  if (request.serviceTier !== undefined) body.service_tier = request.serviceTier;
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
  for (const [field, value] of Object.entries(request.passthrough)) {
    if (!passthroughFields.has(field)) throw unsendable(request, field, CHAT);
    body[field] = value;
  }
  return withStream(body, stream);
}

function legacyBody(request: NeutralRequest, stream: boolean): Wire {
  rejectUnsendable(request, { ...NEVER, ...LEGACY_ONLY }, LEGACY);
  const passthrough = Object.keys(request.passthrough);
  if (passthrough.length > 0) throw unsendable(request, passthrough[0], LEGACY);
  const body: Wire = { model: request.model, prompt: request.prompt ?? '' };
  Object.assign(body, sharedFields(request));
  if (request.limits.maxTokens !== undefined) body.max_tokens = request.limits.maxTokens;
  // Without logprobs, an echo of token ids cannot be told from the generated text: ask for 0 alternatives.
  if (request.logprobs) body.logprobs = request.logprobs.top;
  else if (echoNeedsTokens(request)) body.logprobs = 0;
  if (request.echo?.all) body.echo = true;
  return withStream(body, stream);
}

/** Fields both OpenAI endpoints take under the same name. */
function sharedFields(request: NeutralRequest): Wire {
  const { sampling, limits } = request;
  const body: Wire = samplingOnWire(sampling, OPENAI_SAMPLING);
  if (request.choices !== 1) body.n = request.choices;
  if (limits.stop.length > 0) body.stop = [...limits.stop];
  if (request.user !== undefined) body.user = request.user;
  return body;
}

function responseFormat(request: NeutralRequest, format: ResponseFormat): Wire {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      // A schema on json_object is Fireworks'; OpenAI only constrains to a schema with json_schema.
      if (format.schema) throw unsendable(request, 'responseFormat', CHAT, 'a schema on json_object (use json_schema)');
      return { type: 'json_object' };
    case 'json_schema':
      return jsonSchemaFormat(format);
    case 'grammar':
      throw unsendable(request, 'responseFormat', CHAT, 'grammar-constrained output');
  }
}

/**
 * OpenAI's `{type: 'json_schema', json_schema: {name, schema, ...}}`, which Fireworks takes too.
 * The wrapper requires a name; callers of Fireworks' bare-schema shape give none, so it is 'response'.
 */
export function jsonSchemaFormat(format: Extract<ResponseFormat, { type: 'json_schema' }>): Wire {
  const spec: Wire = { name: format.name ?? 'response', schema: format.schema };
  if (format.description !== undefined) spec.description = format.description;
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

/** The proxy always asks for usage on a stream so it can log it. */
export function withStream(body: Wire, stream: boolean, options: Wire = {}): Wire {
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true, ...options };
  }
  return body;
}
