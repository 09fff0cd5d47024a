/**
 * NeutralRequest -> a body for llama.cpp's server (`llama-server`):
 * `/v1/chat/completions` for chat, `/v1/completions` for text, with its own
 * sampling fields beside OpenAI's (tools/server/server-schema.cpp, v0.4.0).
 * llama-server ignores fields it does not know, so everything it cannot honour
 * is a 400 here (the plan normally refuses it first), never sent in hope.
 *
 * Choices made here:
 *  - `max_tokens` on both endpoints (an alias of its `n_predict`); never -1,
 *    which it reads as "until the context is full".
 *  - logprobs: `n_probs` top entries come back, the sampled one among them when
 *    it ranks; at 0 it returns no logprobs at all, so at least 1 is asked for
 *    and the dialect keeps the caller's `top` (a logprob of the sampled token
 *    only, as OpenAI answers `top_logprobs: 0`).
 *  - `seed` only in llama.cpp's uint32 range, below 4294967295 (its "random" value, and -1's wrap).
 *  - mirostat is Mirostat 2.0: `mirostat: 2`, target -> `mirostat_tau`, rate -> `mirostat_eta`.
 *  - structured output: chat takes OpenAI's `response_format` (json_object may
 *    carry a `schema`); `/v1/completions` ignores `response_format`, so there the
 *    schema goes as its native `json_schema` (`{}`: any JSON, as chat's json_object).
 *    A GBNF grammar is `grammar` on both.
 *  - `user` and `prompt_cache_key` are not sent: llama-server has neither, and
 *    neither changes the output (the proxy's affinity routing has used them).
 */
import { invalidRequest } from '../../src/errors/proxy-error.js';
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { jsonSchemaFormat, withStream } from '../openai/to-wire-body.js';
import { toWireMessages } from '../openai/to-wire-messages.js';
import { toWireToolChoice, toWireTools } from '../openai/to-wire-tools.js';
import { isUsed, rejectUnsendable, unsendable, type UsageChecks } from '../reject-unsendable.js';
import { OPENAI_SAMPLING, samplingOnWire, type SamplingNames } from '../wire-names.js';

type Wire = Record<string, unknown>;

export interface LlamaServerWireOptions {
  /** A streamed body? Default: whether the request asks for a stream. */
  stream?: boolean;
  /** The server runs with `--jinja`, so `tools` and `tool_choice` work (without it they are an HTTP 500). */
  jinja?: boolean;
}

const BACKEND = 'llama-server';

/** Neutral features llama-server has no field for (or ignores: `echo`, capture cmpl_echo_logprobs2). */
const NEVER: UsageChecks = {
  echo: (r) => r.echo !== undefined,
  'limits.onContextOverflow': (r) => r.limits.onContextOverflow === 'error',
  'reasoning.effort': (r) => r.reasoning?.effort !== undefined,
  'reasoning.budgetTokens': (r) => r.reasoning?.budgetTokens !== undefined,
  'reasoning.history': (r) => r.reasoning?.history !== undefined,
  'reasoning.budgetEndText': (r) => r.reasoning?.budgetEndText !== undefined,
  prediction: (r) => r.prediction !== undefined,
  images: (r) => r.images !== undefined,
  returnTokenIds: (r) => r.returnTokenIds === true,
  'stream.tokenIds': (r) => r.stream?.tokenIds === true,
  rawOutput: (r) => r.rawOutput === true,
  samplingMask: (r) => r.samplingMask !== undefined,
  promptCacheIsolationKey: (r) => r.promptCacheIsolationKey !== undefined,
  metadata: (r) => r.metadata !== undefined,
  store: (r) => isUsed(r.store),
  serviceTier: (r) => r.serviceTier !== undefined,
};

const TOOLS: UsageChecks = {
  tools: (r) => Boolean(r.tools?.length),
  // Without tools there is nothing to choose: `auto` and `none` (and parallel_tool_calls) change nothing and are not sent.
  toolChoice: (r) => r.toolChoice !== undefined && r.toolChoice !== 'none' && r.toolChoice !== 'auto',
};

/**
 * @example
 * toWireBody({...emptyRequest('text', 'stories260K'), prompt: 'Once', sampling: {topK: 40, repetitionPenalty: 1.1}})
 * // {model: 'stories260K', prompt: 'Once', top_k: 40, repeat_penalty: 1.1}
 */
export function toWireBody(request: NeutralRequest, options: LlamaServerWireOptions = {}): Wire {
  const stream = options.stream ?? request.stream !== undefined;
  rejectUnsendable(request, NEVER, BACKEND);
  const body: Wire = { model: request.model };
  if (request.endpoint === 'chat') {
    if (!options.jinja) rejectUnsendable(request, TOOLS, `${BACKEND} without --jinja`);
    body.messages = toWireMessages(request.messages ?? [], { reasoning: true, unsupportedParts: new Set(['video', 'file', 'refusal']), backend: BACKEND, warnings: request.warnings });
  } else {
    rejectUnsendable(request, { ...TOOLS, toolChoice: (r) => r.toolChoice !== undefined }, `${BACKEND} completions`);
    body.prompt = request.prompt ?? '';
  }
  Object.assign(body, samplingFields(request), logprobsFields(request));
  if (request.responseFormat) Object.assign(body, formatFields(request.responseFormat, request.endpoint));
  if (request.endpoint === 'chat' && options.jinja) {
    if (request.tools?.length) body.tools = toWireTools(request.tools);
    if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  const [relayed] = Object.keys(request.passthrough);
  if (relayed !== undefined) throw unsendable(request, relayed, BACKEND);
  return withStream(body, stream);
}

/** The seed is checked on its own (llama.cpp reads some values as "random"). */
const { seed: _seed, ...openaiWithoutSeed } = OPENAI_SAMPLING;
const SAMPLING: SamplingNames = {
  ...openaiWithoutSeed,
  topK: 'top_k',
  minP: 'min_p',
  typicalP: 'typical_p',
  repetitionPenalty: 'repeat_penalty',
};

function samplingFields(request: NeutralRequest): Wire {
  const { sampling, limits, choices } = request;
  const body: Wire = samplingOnWire(sampling, SAMPLING);
  if (sampling.mirostat) {
    body.mirostat = 2;
    if (sampling.mirostat.target !== undefined) body.mirostat_tau = sampling.mirostat.target;
    if (sampling.mirostat.learningRate !== undefined) body.mirostat_eta = sampling.mirostat.learningRate;
  }
  if (sampling.seed !== undefined) body.seed = seedOf(request, sampling.seed);
  if (choices !== 1) body.n = choices;
  if (limits.stop.length > 0) body.stop = [...limits.stop];
  if (limits.maxTokens !== undefined) {
    if (limits.maxTokens < 0) {
      const param = request.origins['limits.maxTokens'] ?? 'max_tokens';
      throw invalidRequest(param, `${param} must be at least 0 (got ${limits.maxTokens}).`);
    }
    body.max_tokens = limits.maxTokens;
  }
  if (limits.ignoreEos !== undefined) body.ignore_eos = limits.ignoreEos;
  return body;
}

/** llama.cpp seeds are uint32, and 4294967295 (-1 as uint32) means "pick a random seed": reproducibility would be lost. */
function seedOf(request: NeutralRequest, seed: number): number {
  if (Number.isInteger(seed) && seed >= 0 && seed < 0xffffffff) return seed;
  const param = request.origins['sampling.seed'] ?? 'seed';
  throw invalidRequest(param, `${param} must be between 0 and 4294967294 for llama-server, whose seeds are 32-bit and read -1 as "random" (got ${seed}).`);
}

function logprobsFields({ logprobs, endpoint }: NeutralRequest): Wire {
  if (!logprobs) return {};
  const top = Math.max(logprobs.top, 1);
  return endpoint === 'chat' ? { logprobs: true, top_logprobs: top } : { logprobs: top };
}

function formatFields(format: ResponseFormat, endpoint: NeutralRequest['endpoint']): Wire {
  if (format.type === 'text') return endpoint === 'chat' ? { response_format: { type: 'text' } } : {};
  if (format.type === 'grammar') return { grammar: format.grammar };
  if (endpoint === 'text') return { json_schema: format.schema ?? {} };
  if (format.type === 'json_schema') return { response_format: jsonSchemaFormat(format) };
  return { response_format: format.schema ? { type: 'json_object', schema: format.schema } : { type: 'json_object' } };
}
