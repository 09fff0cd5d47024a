/**
 * NeutralRequest -> a Fireworks body for `/completions` (text) or
 * `/chat/completions` (chat), with every Fireworks extension the neutral model
 * carries. Not sent: `stream_options.buffer_*` (the proxy coalesces itself).
 *
 * Choices made here:
 *  - `max_tokens` (Fireworks' name; `max_completion_tokens` is its alias).
 *  - logprobs on completions in the caller's shape (integer N for legacy, else
 *    `true` + `top_logprobs`); on chat always `true` + `top_logprobs`.
 *  - reasoning: a named effort is `reasoning_effort: 'high'`, a bare budget the
 *    integer `reasoning_effort: N`; a budget with an effort or an end text needs
 *    `thinking: {type: 'enabled', budget_tokens, effort, budget_end_str}`.
 *  - predictions (text or token ids) go as `speculation`, which both take.
 *  - `context_length_exceeded_behavior` only when 'error' ('truncate' is Fireworks' default).
 */
import type { NeutralRequest, Reasoning, ResponseFormat } from '../../src/model/request.js';
import { isUsed, rejectUnsendable, unsendable } from '../reject-unsendable.js';
import { echoNeedsTokens } from '../openai/split-echo.js';
import { jsonSchemaFormat, withStream } from '../openai/to-wire-body.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { toWireToolChoice, toWireTools } from '../openai/to-wire-tools.js';
import { OPENAI_SAMPLING, samplingOnWire, type SamplingNames } from '../wire-names.js';

type Wire = Record<string, unknown>;

export interface FireworksWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** `request.passthrough` fields the backend takes verbatim (chat only). Default: FIREWORKS_PASSTHROUGH. */
  passthroughFields?: ReadonlySet<string>;
}

/** Fireworks chat fields with no neutral meaning, which the chat dialect relays verbatim. */
export const FIREWORKS_PASSTHROUGH: ReadonlySet<string> = new Set(['prompt_truncate_len', 'safe_tokenization']);

const BACKEND = 'Fireworks';

/**
 * @example
 * toWireBody({...emptyRequest('text', 'accounts/fireworks/models/x'), prompt: 'Once', sampling: {topK: 40}})
 * // {model: 'accounts/fireworks/models/x', prompt: 'Once', top_k: 40}
 */
export function toWireBody(request: NeutralRequest, options: FireworksWireOptions = {}): Wire {
  const stream = options.stream ?? request.stream !== undefined;
  // Fireworks has no `store`; images ride in content parts on chat, top-level only on completions.
  rejectUnsendable(request, { store: (r) => isUsed(r.store) }, BACKEND);
  const body: Wire = { model: request.model };
  if (request.endpoint === 'chat') {
    rejectUnsendable(request, { images: (r) => r.images !== undefined }, 'Fireworks chat completions');
    body.messages = toWireMessages(request.messages ?? [], { reasoning: true, unsupportedParts: new Set(['audio', 'file', 'refusal']), backend: BACKEND, warnings: request.warnings });
  } else {
    rejectUnsendable(request, {
      tools: (r) => Boolean(r.tools?.length),
      toolChoice: (r) => r.toolChoice !== undefined,
      parallelToolCalls: (r) => r.parallelToolCalls !== undefined,
    }, 'Fireworks completions');
    body.prompt = request.prompt ?? '';
    if (request.images !== undefined) body.images = request.images;
  }
  Object.assign(body, samplingFields(request), logprobsFields(request), reasoningFields(request.reasoning));
  if (request.echo?.all) body.echo = true;
  else if (request.echo?.lastTokens !== undefined) body.echo_last = request.echo.lastTokens;
  if (request.responseFormat) body.response_format = responseFormat(request.responseFormat);
  if (request.endpoint === 'chat') {
    if (request.tools?.length) body.tools = toWireTools(request.tools);
    if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.prediction !== undefined) body.speculation = request.prediction;
  if (request.returnTokenIds !== undefined) body.return_token_ids = request.returnTokenIds;
  if (request.rawOutput !== undefined) body.raw_output = request.rawOutput;
  if (request.perfMetricsInBody !== undefined) body.perf_metrics_in_response = request.perfMetricsInBody;
  if (request.samplingMask !== undefined) body.sampling_mask = request.samplingMask;
  if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
  if (request.promptCacheIsolationKey !== undefined) body.prompt_cache_isolation_key = request.promptCacheIsolationKey;
  if (request.user !== undefined) body.user = request.user;
  if (request.metadata !== undefined) body.metadata = request.metadata;
  if (request.serviceTier !== undefined) body.service_tier = request.serviceTier;

  const relayable = request.endpoint === 'chat' ? options.passthroughFields ?? FIREWORKS_PASSTHROUGH : new Set<string>();
  for (const [field, value] of Object.entries(request.passthrough)) {
    if (!relayable.has(field)) throw unsendable(request, field, BACKEND);
    body[field] = value;
  }
  return withStream(body, stream, request.stream?.tokenIds ? { include_internal_content: true } : {});
}

const SAMPLING: SamplingNames = {
  ...OPENAI_SAMPLING,
  topK: 'top_k',
  minP: 'min_p',
  typicalP: 'typical_p',
  repetitionPenalty: 'repetition_penalty',
};

function samplingFields({ sampling, limits, choices }: NeutralRequest): Wire {
  const body: Wire = samplingOnWire(sampling, SAMPLING);
  if (sampling.mirostat?.target !== undefined) body.mirostat_target = sampling.mirostat.target;
  if (sampling.mirostat?.learningRate !== undefined) body.mirostat_lr = sampling.mirostat.learningRate;
  if (choices !== 1) body.n = choices;
  if (limits.stop.length > 0) body.stop = [...limits.stop];
  if (limits.maxTokens !== undefined) body.max_tokens = limits.maxTokens;
  if (limits.ignoreEos !== undefined) body.ignore_eos = limits.ignoreEos;
  if (limits.onContextOverflow === 'error') body.context_length_exceeded_behavior = 'error';
  return body;
}

function logprobsFields(request: NeutralRequest): Wire {
  const { logprobs } = request;
  if (!logprobs) {
    // Without logprobs, an echo of token ids or of the last N tokens cannot be told from the generated text.
    return echoNeedsTokens(request) ? { logprobs: 0 } : {};
  }
  if (request.endpoint === 'text' && logprobs.shape === 'legacy') return { logprobs: logprobs.top };
  return { logprobs: true, top_logprobs: logprobs.top };
}

function reasoningFields(reasoning: Reasoning | undefined): Wire {
  if (!reasoning) return {};
  const body: Wire = {};
  const { effort, budgetTokens, budgetEndText, history } = reasoning;
  if (budgetEndText !== undefined || (budgetTokens !== undefined && effort !== undefined)) {
    const thinking: Wire = { type: 'enabled' };
    if (budgetTokens !== undefined) thinking.budget_tokens = budgetTokens;
    if (budgetEndText !== undefined) thinking.budget_end_str = budgetEndText;
    if (effort !== undefined) thinking.effort = effort;
    body.thinking = thinking;
  } else if (budgetTokens !== undefined) {
    body.reasoning_effort = budgetTokens;
  } else if (effort !== undefined) {
    body.reasoning_effort = effort;
  }
  if (history !== undefined) body.reasoning_history = history;
  return body;
}

function responseFormat(format: ResponseFormat): Wire {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return format.schema ? { type: 'json_object', schema: format.schema } : { type: 'json_object' };
    case 'json_schema':
      return jsonSchemaFormat(format);
    case 'grammar':
      return { type: 'grammar', grammar: format.grammar };
  }
}
