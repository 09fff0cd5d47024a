/**
 * The field rules both dialects share: one rule object per wire field, reused
 * by the chat and completions tables (the chat endpoint takes Fireworks'
 * extensions under the same names). A rule that combines its value with a
 * sibling (`logprobs` + `top_logprobs`, `stream` + `stream_options`, the three
 * reasoning fields) reads the sibling from `body`; conflicts between fields are
 * checked first by the cross-field list in request-context.ts.
 */
import { invalidRequest } from '../errors/proxy-error.js';
import { normalizeReasoning } from '../model/reasoning.js';
import type { StreamOptions } from '../model/request.js';
import { copyTo, mapWith, setPath, type FieldContext, type FieldRule } from './field-table.js';
import { parseResponseFormat } from './parse-response-format.js';
import { isSet } from '../model/is-set.js';
import { pushAll } from '../model/push-all.js';

/** Fields with the same name and meaning in both dialects. */
export type CommonField =
  | 'model'
  | 'user'
  | 'prompt_cache_key'
  | 'prompt_cache_isolation_key'
  | 'raw_output'
  | 'perf_metrics_in_response'
  | 'n'
  | 'service_tier'
  | 'stop'
  | 'max_tokens'
  | 'max_completion_tokens'
  | 'temperature'
  | 'top_k'
  | 'top_p'
  | 'min_p'
  | 'typical_p'
  | 'frequency_penalty'
  | 'presence_penalty'
  | 'repetition_penalty'
  | 'mirostat_target'
  | 'mirostat_lr'
  | 'seed'
  | 'logit_bias'
  | 'logprobs'
  | 'top_logprobs'
  | 'sampling_mask'
  | 'echo'
  | 'echo_last'
  | 'ignore_eos'
  | 'context_length_exceeded_behavior'
  | 'response_format'
  | 'speculation'
  | 'prediction'
  | 'metadata'
  | 'reasoning_effort'
  | 'reasoning_history'
  | 'thinking'
  | 'return_token_ids';

/** `stop`: a string becomes a one-item list. */
const stop = mapWith('limits.stop (a string becomes [string])', (value, { request, field }) => {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
    throw invalidRequest(field, `${field} must be a string or an array of strings.`);
  setPath(request, 'limits.stop', [...list], field);
});

/**
 * `logprobs: true` (+ `top_logprobs`, default 0) -> chat shape; `logprobs: N` -> legacy shape
 * with N alternatives unless `top_logprobs` says otherwise (Fireworks). `false` asks for none.
 * Legacy `logprobs: 0` still returns the sampled token's logprob, so it is `{top: 0, shape: 'legacy'}`.
 */
const logprobs = mapWith(
  'logprobs {top, shape}: true -> chat (top = top_logprobs ?? 0); integer N -> legacy (top = top_logprobs ?? N)',
  (value, { request, field, body }) => {
    if (value === false) return;
    const top = typeof body.top_logprobs === 'number' ? body.top_logprobs : undefined;
    if (value === true) setPath(request, 'logprobs', { top: top ?? 0, shape: 'chat' }, field);
    else if (typeof value === 'number' && Number.isInteger(value))
      setPath(request, 'logprobs', { top: top ?? value, shape: 'legacy' }, field);
    else throw invalidRequest(field, `${field} must be a boolean or an integer.`);
    // The plan names this field when the backend returns fewer alternatives.
    request.origins['logprobs.top'] = top === undefined ? field : 'top_logprobs';
  },
);

/** Read by the `logprobs` row; the cross-field list rejects it without `logprobs`. */
const topLogprobs = mapWith('logprobs.top (applied with logprobs)', (value, { field }) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidRequest(field, `${field} must be an integer.`);
});

const echo = mapWith('echo {all: true}; false is the default', (value, { request, field }) => {
  if (value === true) setPath(request, 'echo', { all: true }, field);
});

const echoLast = mapWith('echo {all: false, lastTokens}', (value, { request, field }) => {
  setPath(request, 'echo', { all: false, lastTokens: value }, field);
});

/** OpenAI's `{type: 'content', content}` or Fireworks' plain string -> prediction text. */
const prediction = mapWith('prediction (text; content parts joined)', (value, { request, field }) => {
  setPath(request, 'prediction', predictionText(value, field), field);
});

const speculation = mapWith('prediction (text or token ids)', (value, { request, field }) => {
  const ok = typeof value === 'string' || (Array.isArray(value) && value.every((id) => Number.isInteger(id)));
  if (!ok) throw invalidRequest(field, `${field} must be a string or an array of token ids.`);
  setPath(request, 'prediction', value, field);
});

function predictionText(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  const content = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).content : undefined;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidRequest(field, `${field} must be a string or {type: 'content', content}.`);
  return content
    .map((part: Record<string, unknown>, i) => {
      if (part?.type !== 'text' || typeof part.text !== 'string') {
        throw invalidRequest(
          `${field}.content.${i}`,
          `A ${String(part?.type)} part in ${field}.content is not supported by this proxy: a prediction is text.`,
          'unsupported_parameter',
        );
      }
      return part.text;
    })
    .join('');
}

/** The three reasoning fields are normalised together, once (model/reasoning.ts). */
function applyReasoning(_value: unknown, { request, body }: FieldContext): void {
  if (request.reasoning) return;
  const { reasoning, origins, warnings } = normalizeReasoning(body);
  // What the model may do, not what the answer must hold: a backend with no place for it goes without, in a warning.
  request.reasoning = reasoning && { ...reasoning, offered: true };
  Object.assign(request.origins, origins);
  pushAll(request.warnings, warnings);
}

const responseFormat = mapWith('responseFormat (text | json_object | json_schema | grammar)', (value, { request, field }) => {
  setPath(request, 'responseFormat', parseResponseFormat(value, field), field);
});

/**
 * `max_tokens` / `max_completion_tokens`: a count of tokens, so never below 0 on
 * any backend (llama.cpp reads -1 as "until the context is full"; others differ).
 */
const maxTokens = mapWith('limits.maxTokens (at least 0)', (value, { request, field }) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidRequest(field, `${field} must be at least 0 (got ${String(value)}).`);
  setPath(request, 'limits.maxTokens', value, field);
});

/** One rule object per field; both tables spread these. */
export const commonFields: Readonly<Record<CommonField, FieldRule>> = {
  model: copyTo('model'),
  user: copyTo('user'),
  prompt_cache_key: copyTo('promptCacheKey'),
  prompt_cache_isolation_key: copyTo('promptCacheIsolationKey'),
  raw_output: copyTo('vendor.fireworks.rawOutput'),
  perf_metrics_in_response: copyTo('perfMetricsInBody'),
  n: copyTo('choices'),
  service_tier: copyTo('serviceTier'),
  stop,
  max_tokens: maxTokens,
  max_completion_tokens: maxTokens,
  temperature: copyTo('sampling.temperature'),
  top_k: copyTo('sampling.topK'),
  top_p: copyTo('sampling.topP'),
  min_p: copyTo('sampling.minP'),
  typical_p: copyTo('sampling.typicalP'),
  frequency_penalty: copyTo('sampling.frequencyPenalty'),
  presence_penalty: copyTo('sampling.presencePenalty'),
  repetition_penalty: copyTo('sampling.repetitionPenalty'),
  mirostat_target: copyTo('sampling.mirostat.target'),
  mirostat_lr: copyTo('sampling.mirostat.learningRate'),
  seed: copyTo('sampling.seed'),
  logit_bias: copyTo('sampling.logitBias'),
  logprobs,
  top_logprobs: topLogprobs,
  sampling_mask: copyTo('samplingMask'),
  echo,
  echo_last: echoLast,
  ignore_eos: copyTo('limits.ignoreEos'),
  context_length_exceeded_behavior: copyTo('limits.onContextOverflow'),
  response_format: responseFormat,
  speculation,
  prediction,
  metadata: copyTo('metadata'),
  reasoning_effort: mapWith('reasoning.effort / budgetTokens (with thinking, see model/reasoning.ts)', applyReasoning),
  reasoning_history: mapWith('reasoning.history', applyReasoning),
  thinking: mapWith('reasoning.* (thinking.effort overrides reasoning_effort; disabled always disables)', applyReasoning),
  return_token_ids: copyTo('returnTokenIds'),
};

const STREAM_OPTION_KEYS = [
  'include_usage',
  'include_internal_content',
  'include_obfuscation',
  'buffer_tokens',
  'buffer_ms',
  'buffer_mode',
];

/**
 * `stream` and `stream_options`, whose include_usage default differs: false for
 * OpenAI chat, true for Fireworks completions. `buffer_*` coalescing is emulated
 * by the proxy for every backend.
 * @example streamFields({includeUsage: true}).stream
 */
export function streamFields(defaults: { includeUsage: boolean }): { stream: FieldRule; stream_options: FieldRule } {
  const build = (_value: unknown, context: FieldContext): void => {
    if (context.body.stream !== true || context.request.stream) return;
    context.request.stream = streamOptions(context, defaults.includeUsage);
    context.request.origins.stream = 'stream';
  };
  return {
    stream: mapWith(`stream (present when true; includeUsage defaults to ${defaults.includeUsage})`, build),
    stream_options: mapWith('stream.includeUsage, tokenIds (include_internal_content), coalesce (buffer_*, emulated)', build),
  };
}

function streamOptions({ body, request }: FieldContext, includeUsage: boolean): StreamOptions {
  const out: StreamOptions = { includeUsage, tokenIds: false };
  const options = (body.stream_options ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (isSet(options[key]) && !STREAM_OPTION_KEYS.includes(key))
      throw invalidRequest(`stream_options.${key}`, `Unrecognized stream_options field: ${key}.`);
  }
  if (isSet(options.include_usage)) out.includeUsage = options.include_usage === true;
  if (options.include_internal_content === true) out.tokenIds = true;
  // OpenAI pads stream events when this is true (its default); the proxy never pads, so say so.
  if (options.include_obfuscation === true)
    request.warnings.push('stream_options.include_obfuscation: the proxy does not add obfuscation padding.');
  if (isSet(options.buffer_tokens) || isSet(options.buffer_ms) || isSet(options.buffer_mode)) {
    const mode = options.buffer_mode ?? 'any';
    if (mode !== 'any' && mode !== 'all')
      throw invalidRequest('stream_options.buffer_mode', "stream_options.buffer_mode must be 'any' or 'all'.");
    const coalesce: NonNullable<StreamOptions['coalesce']> = { mode };
    // 0 disables a threshold (Fireworks); kept as given, the coalescer reads it so.
    if (isSet(options.buffer_tokens)) coalesce.tokens = options.buffer_tokens as number;
    if (isSet(options.buffer_ms)) coalesce.ms = options.buffer_ms as number;
    out.coalesce = coalesce;
  }
  return out;
}
