/**
 * NeutralRequest -> a body for vLLM's OpenAI-compatible server: `/v1/chat/completions`
 * for chat, `/v1/completions` for text, with the extra sampling parameters its
 * protocol declares (vllm/entrypoints/openai/{chat_completion,completion}/protocol.py).
 * vLLM logs and ignores fields it does not know, so everything it cannot honour
 * is a 400 here (the plan normally refuses it first), never sent in hope.
 *
 * Choices made here:
 *  - chat sends `max_completion_tokens` (`max_tokens` is deprecated there), completions `max_tokens`.
 *  - logprobs: chat `logprobs: true` + `top_logprobs`; completions the integer `logprobs: N`
 *    (its only form; the dialect answers a `logprobs: true` caller in kind).
 *  - structured output: OpenAI's `response_format` for json_object and json_schema; a schema
 *    on json_object (Fireworks') and a grammar go in `structured_outputs` (`json`, `grammar`),
 *    which replaced `guided_json` / `guided_grammar` in vLLM 0.12 (docs: features/structured_outputs).
 *  - token ids: `return_token_ids` (per choice `token_ids`, the prompt's `prompt_token_ids`),
 *    for `return_token_ids` callers and for per-delta ids on a stream alike.
 *  - `prompt_cache_isolation_key` is vLLM's `cache_salt`: a per-tenant salt on the prefix cache.
 *  - `prompt_cache_key` is not sent: vLLM has no such field, and the proxy's affinity routing has used it.
 */
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { echoNeedsTokens } from '../openai/split-echo.js';
import { jsonSchemaFormat, withStream } from '../openai/to-wire-body.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { toWireToolChoice, toWireTools } from '../openai/to-wire-tools.js';
import { isUsed, rejectUnsendable, unsendable, type UsageChecks } from '../reject-unsendable.js';
import { OPENAI_SAMPLING, samplingOnWire, type SamplingNames } from '../wire-names.js';

type Wire = Record<string, unknown>;

export interface VllmWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
}

const BACKEND = 'vLLM';

/** Neutral features vLLM has no field for, on either endpoint. */
const NEVER: UsageChecks = {
  'sampling.typicalP': (r) => r.sampling.typicalP !== undefined,
  'sampling.mirostat': (r) => r.sampling.mirostat !== undefined,
  'echo.lastTokens': (r) => r.echo?.lastTokens !== undefined,
  'reasoning.budgetTokens': (r) => r.reasoning?.budgetTokens !== undefined,
  'reasoning.history': (r) => r.reasoning?.history !== undefined,
  'reasoning.budgetEndText': (r) => r.reasoning?.budgetEndText !== undefined,
  prediction: (r) => r.prediction !== undefined,
  images: (r) => r.images !== undefined,
  rawOutput: (r) => r.rawOutput === true,
  samplingMask: (r) => r.samplingMask !== undefined,
  metadata: (r) => r.metadata !== undefined,
  store: (r) => isUsed(r.store),
  serviceTier: (r) => r.serviceTier !== undefined,
};

/** What `/v1/completions` lacks on top: everything chat-specific. */
const COMPLETIONS_LACK: UsageChecks = {
  tools: (r) => Boolean(r.tools?.length),
  toolChoice: (r) => r.toolChoice !== undefined,
  parallelToolCalls: (r) => r.parallelToolCalls !== undefined,
  'reasoning.effort': (r) => r.reasoning?.effort !== undefined,
};

/**
 * @example
 * toWireBody({...emptyRequest('text', 'Qwen/Qwen3-8B'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'Qwen/Qwen3-8B', prompt: 'Once', top_k: 40, repetition_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: VllmWireOptions = {}): Wire {
  const stream = options.stream ?? request.stream !== undefined;
  rejectUnsendable(request, NEVER, BACKEND);
  const body: Wire = { model: request.model };
  if (request.endpoint === 'chat') {
    body.messages = toWireMessages(request.messages ?? [], { reasoning: false, unsupportedParts: new Set(['file', 'refusal']), backend: BACKEND, warnings: request.warnings });
  } else {
    rejectUnsendable(request, COMPLETIONS_LACK, `${BACKEND} completions`);
    body.prompt = request.prompt ?? '';
  }
  Object.assign(body, samplingFields(request), logprobsFields(request));
  if (request.echo?.all) body.echo = true;
  if (request.responseFormat) Object.assign(body, formatFields(request.responseFormat));
  if (request.tools?.length) body.tools = toWireTools(request.tools);
  if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.reasoning?.effort !== undefined) body.reasoning_effort = request.reasoning.effort;
  if (request.returnTokenIds || request.stream?.tokenIds) body.return_token_ids = true;
  if (request.promptCacheIsolationKey !== undefined) body.cache_salt = request.promptCacheIsolationKey;
  if (request.user !== undefined) body.user = request.user;
  const [relayed] = Object.keys(request.passthrough);
  if (relayed !== undefined) throw unsendable(request, relayed, BACKEND);
  return withStream(body, stream);
}

const SAMPLING: SamplingNames = {
  ...OPENAI_SAMPLING,
  topK: 'top_k',
  minP: 'min_p',
  repetitionPenalty: 'repetition_penalty',
};

function samplingFields({ sampling, limits, choices, endpoint }: NeutralRequest): Wire {
  const body: Wire = samplingOnWire(sampling, SAMPLING);
  if (choices !== 1) body.n = choices;
  if (limits.stop.length > 0) body.stop = [...limits.stop];
  if (limits.maxTokens !== undefined) body[endpoint === 'chat' ? 'max_completion_tokens' : 'max_tokens'] = limits.maxTokens;
  if (limits.ignoreEos !== undefined) body.ignore_eos = limits.ignoreEos;
  return body;
}

function logprobsFields(request: NeutralRequest): Wire {
  const { logprobs, endpoint } = request;
  if (!logprobs) {
    // Without logprobs, an echo of token ids cannot be told from the generated text: ask for the sampled token's only.
    return echoNeedsTokens(request) ? { logprobs: 0 } : {};
  }
  return endpoint === 'chat' ? { logprobs: true, top_logprobs: logprobs.top } : { logprobs: logprobs.top };
}

function formatFields(format: ResponseFormat): Wire {
  switch (format.type) {
    case 'text':
      return { response_format: { type: 'text' } };
    case 'json_object':
      return format.schema ? { structured_outputs: { json: format.schema } } : { response_format: { type: 'json_object' } };
    case 'json_schema':
      return { response_format: jsonSchemaFormat(format) };
    case 'grammar':
      return { structured_outputs: { grammar: format.grammar } };
  }
}
