/**
 * `kind: fireworks`: `/completions` and `/chat/completions` with every Fireworks
 * extension the neutral model carries.
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
 *  - not sent: `stream_options.buffer_*` (the proxy coalesces itself).
 */
import {
  byEndpoint,
  chatOnly,
  convert,
  copy,
  emulate,
  native,
  oneOf,
  unsupported,
  type BackendTable,
  type FieldSupport,
  type WireBody,
  OPENAI_CONVERSATION,
} from '../../src/backend/field-support.js';
import type { ResponseFormat } from '../../src/model/request.js';
import { echoNeedsTokens } from '../openai/split-echo.js';
import { toolChoiceField, toolsField } from '../openai/to-wire-tools.js';
import { jsonSchemaFormat } from '../openai/wire-formats.js';

const mirostat = convert('mirostat_target, mirostat_lr', (body, { sampling }) => {
  if (sampling.mirostat?.target !== undefined) body.mirostat_target = sampling.mirostat.target;
  if (sampling.mirostat?.learningRate !== undefined) body.mirostat_lr = sampling.mirostat.learningRate;
});

const logprobs = convert(
  "logprobs in the caller's shape on completions; true + top_logprobs on chat",
  (body, { logprobs: asked, endpoint }) => {
    if (!asked) return;
    if (endpoint === 'text' && asked.shape === 'legacy') body.logprobs = asked.top;
    else Object.assign(body, { logprobs: true, top_logprobs: asked.top });
  },
  'logprobs',
);

// Without logprobs, an echo of token ids or of the last N tokens cannot be told from the generated text.
const echo = convert(
  'echo: true, or echo_last: N (the echoed tokens need logprobs)',
  (body, request) => {
    if (request.echo?.all) body.echo = true;
    else if (request.echo?.lastTokens !== undefined) body.echo_last = request.echo.lastTokens;
    if (!request.logprobs && echoNeedsTokens(request)) body.logprobs = 0;
  },
  'echo',
);

const responseFormat = convert('response_format (json_object may carry a schema; grammar)', (body, request) => {
  body.response_format = formatOf(request.responseFormat as ResponseFormat);
});

const reasoning = convert('reasoning_effort (a name or a budget), thinking, reasoning_history', (body, { reasoning: asked }) => {
  if (!asked) return;
  const { effort, budgetTokens, budgetEndText, history } = asked;
  if (budgetEndText !== undefined || (budgetTokens !== undefined && effort !== undefined)) {
    const thinking: WireBody = { type: 'enabled' };
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
});

const customAsFunction = emulate(
  'each custom tool goes as a function with one string parameter, `input`, and its calls come back unwrapped; a grammar on the input is refused (a function argument takes none)',
);

// Asked for in the stream options (withStream in to-wire-body.ts).
const streamTokenIds = native('stream_options.include_internal_content');

const FIELDS: FieldSupport = {
  'sampling.temperature': copy('temperature'),
  'sampling.topP': copy('top_p'),
  'sampling.topK': copy('top_k'),
  'sampling.minP': copy('min_p'),
  'sampling.typicalP': copy('typical_p'),
  'sampling.presencePenalty': copy('presence_penalty'),
  'sampling.frequencyPenalty': copy('frequency_penalty'),
  'sampling.repetitionPenalty': copy('repetition_penalty'),
  'sampling.mirostat': mirostat,
  'sampling.seed': copy('seed'),
  'sampling.logitBias': copy('logit_bias'),
  choices: copy('n'),
  'limits.stop': copy('stop'),
  'limits.maxTokens': copy('max_tokens'),
  'limits.ignoreEos': copy('ignore_eos'),
  'limits.onContextOverflow': copy('context_length_exceeded_behavior'),
  'prompt:tokenIds': byEndpoint({ chat: unsupported('chat takes messages'), text: native('sent as given') }),
  'prompt:batch': byEndpoint({ chat: emulate('one request per prompt'), text: native('sent as given') }),
  images: byEndpoint({ chat: unsupported('Fireworks chat takes images as content parts'), text: copy('images') }),
  logprobs,
  echo,
  'echo.lastTokens': echo,
  tools: chatOnly(toolsField),
  'tools:custom': chatOnly(customAsFunction),
  toolChoice: chatOnly(toolChoiceField),
  parallelToolCalls: chatOnly(copy('parallel_tool_calls')),
  'responseFormat:text': responseFormat,
  'responseFormat:json_object': responseFormat,
  'responseFormat:json_schema': responseFormat,
  'responseFormat:grammar': responseFormat,
  'reasoning.effort': reasoning,
  'reasoning.budgetTokens': reasoning,
  'reasoning.history': reasoning,
  'reasoning.budgetEndText': reasoning,
  prediction: copy('speculation'),
  returnTokenIds: copy('return_token_ids'),
  'stream.tokenIds': streamTokenIds,
  rawOutput: copy('raw_output'),
  perfMetricsInBody: copy('perf_metrics_in_response'),
  samplingMask: copy('sampling_mask'),
  promptCacheIsolationKey: copy('prompt_cache_isolation_key'),
  metadata: copy('metadata'),
  store: unsupported('Fireworks has no store'),
  // Fireworks' tiers (its API answers any other with a 400 of its own).
  serviceTier: oneOf('service_tier', { accepted: ['auto', 'default', 'flex', 'priority'] }),
  user: copy('user'),
  promptCacheKey: copy('prompt_cache_key'),
  cacheControl: unsupported('no caching breakpoints: it caches prompt prefixes on its own'),
  contextManagement: unsupported('no server-side context editing'),
  toolError: unsupported('a tool result has no error flag: its content goes as it is'),
};

/** Fireworks chat fields with no neutral meaning, which the chat dialect relays verbatim. */
const RELAYED: ReadonlySet<string> = new Set(['prompt_truncate_len', 'safe_tokenization']);

export const FIREWORKS_TABLE: BackendTable = {
  fields: FIELDS,
  relayed: { chat: RELAYED, text: new Set() },
  label: { chat: 'Fireworks chat completions', text: 'Fireworks completions' },
  conversation: OPENAI_CONVERSATION,
};

export const FIREWORKS_EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max', 'none', 'adaptive'];

function formatOf(format: ResponseFormat): WireBody {
  switch (format.type) {
    case 'json_object':
      return format.schema ? { type: 'json_object', schema: format.schema } : { type: 'json_object' };
    case 'json_schema':
      return jsonSchemaFormat(format);
    case 'grammar':
      return { type: 'grammar', grammar: format.grammar };
    default:
      return { type: format.type };
  }
}
