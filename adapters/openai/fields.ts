/**
 * `kind: openai` (strict OpenAI): what it does with every neutral field, on
 * `/chat/completions` and on the legacy `/completions`. Fields OpenAI does not
 * accept are never sent.
 *
 * Choices made here:
 *  - chat sends `max_completion_tokens` (OpenAI deprecated `max_tokens`, and its
 *    reasoning models reject it); legacy completions only know `max_tokens`.
 *  - logprobs: chat always `logprobs: true` + `top_logprobs: N`, whichever shape
 *    the caller used (the dialect answers in kind); legacy completions `logprobs: N`.
 *  - predictions are text (`{type: 'content'}`); token ids are Fireworks' `speculation`.
 */
import { unsendable } from '../../src/backend/write-fields.js';
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
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { echoNeedsTokens } from './split-echo.js';
import { jsonSchemaFormat } from './wire-formats.js';
import { toolChoiceField, toolsField } from './to-wire-tools.js';

const LABEL = { chat: 'the OpenAI chat API', text: 'the OpenAI completions API' } as const;

const logprobs = convert(
  'chat: logprobs true + top_logprobs; legacy: logprobs N',
  (body, { logprobs: asked, endpoint }) => {
    if (!asked) return;
    if (endpoint === 'chat') Object.assign(body, { logprobs: true, top_logprobs: asked.top });
    else body.logprobs = asked.top;
  },
  'logprobs',
);

// Without logprobs, an echo of token ids cannot be told from the generated text: ask for 0 alternatives.
const echo = convert(
  'echo: true (the echoed tokens need logprobs)',
  (body, request) => {
    if (request.echo?.all) body.echo = true;
    if (!request.logprobs && echoNeedsTokens(request)) body.logprobs = 0;
  },
  'echo',
);

const responseFormat = convert('response_format (text, json_object, json_schema)', (body, request) => {
  body.response_format = formatOf(request, request.responseFormat as ResponseFormat);
});

const prediction = convert('prediction {type: content} (text only)', (body, request) => {
  if (Array.isArray(request.prediction)) throw unsendable(request, 'prediction', LABEL.chat);
  body.prediction = { type: 'content', content: request.prediction };
});

const FIELDS: FieldSupport = {
  'sampling.temperature': copy('temperature'),
  'sampling.topP': copy('top_p'),
  'sampling.topK': unsupported('OpenAI has no top-k sampling'),
  'sampling.minP': unsupported('OpenAI has no min-p sampling'),
  'sampling.typicalP': unsupported('OpenAI has no typical-p sampling'),
  'sampling.presencePenalty': copy('presence_penalty'),
  'sampling.frequencyPenalty': copy('frequency_penalty'),
  'sampling.repetitionPenalty': unsupported('OpenAI has only presence and frequency penalties'),
  'sampling.mirostat': unsupported('OpenAI has no Mirostat sampler'),
  'sampling.seed': copy('seed'),
  'sampling.logitBias': copy('logit_bias'),
  choices: copy('n'),
  'limits.stop': copy('stop'),
  'limits.maxTokens': byEndpoint({ chat: copy('max_completion_tokens'), text: copy('max_tokens') }),
  'limits.ignoreEos': unsupported('OpenAI always stops at the end-of-sequence token'),
  'limits.onContextOverflow': native('OpenAI answers 400 when the prompt does not fit'),
  'prompt:tokenIds': byEndpoint({ chat: unsupported('chat takes messages'), text: native('sent as given') }),
  'prompt:batch': byEndpoint({ chat: emulate('one request per prompt'), text: native('sent as given') }),
  images: unsupported("Fireworks' top-level images; OpenAI takes images as content parts"),
  logprobs,
  echo: byEndpoint({ chat: unsupported('echo is a completions feature'), text: echo }),
  'echo.lastTokens': unsupported('OpenAI echoes the whole prompt or nothing'),
  tools: chatOnly(toolsField),
  // OpenAI's own custom tools: sent as they came (to-wire-tools.ts).
  'tools:custom': chatOnly(toolsField),
  toolChoice: chatOnly(toolChoiceField),
  parallelToolCalls: chatOnly(copy('parallel_tool_calls')),
  'responseFormat:text': chatOnly(responseFormat),
  'responseFormat:json_object': chatOnly(responseFormat),
  'responseFormat:json_schema': chatOnly(responseFormat),
  'responseFormat:grammar': unsupported('grammar-constrained output'),
  'reasoning.effort': chatOnly(copy('reasoning_effort')),
  'reasoning.budgetTokens': unsupported('OpenAI takes a named effort, not a budget'),
  'reasoning.history': unsupported('OpenAI keeps reasoning to itself'),
  'reasoning.budgetEndText': unsupported('OpenAI takes no thinking budget'),
  prediction: chatOnly(prediction),
  returnTokenIds: unsupported('OpenAI returns no token ids'),
  'stream.tokenIds': unsupported('OpenAI returns no token ids'),
  rawOutput: unsupported('OpenAI returns no raw output'),
  perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
  samplingMask: unsupported('OpenAI has no sampling mask'),
  promptCacheIsolationKey: unsupported('OpenAI has no prompt cache isolation key'),
  metadata: chatOnly(copy('metadata')),
  store: chatOnly(copy('store')),
  // OpenAI's tiers; `fast` is what other APIs call its `priority` tier.
  serviceTier: chatOnly(
    oneOf('service_tier', { accepted: ['auto', 'default', 'flex', 'scale', 'priority'], mapped: { fast: 'priority' } }),
  ),
  user: copy('user'),
  promptCacheKey: chatOnly(copy('prompt_cache_key')),
  cacheControl: unsupported('no caching breakpoints: it caches prompt prefixes on its own'),
  contextManagement: unsupported('no server-side context editing'),
  toolError: unsupported('a tool result has no error flag: its content goes as it is'),
};

/** OpenAI chat fields with no neutral meaning, which the chat dialect relays verbatim. */
const RELAYED: ReadonlySet<string> = new Set([
  'modalities',
  'audio',
  'web_search_options',
  'verbosity',
  'safety_identifier',
  'prompt_cache_retention',
  'prompt_cache_options',
  'moderation',
]);

export const OPENAI_TABLE: BackendTable = {
  fields: FIELDS,
  relayed: { chat: RELAYED, text: new Set() },
  label: LABEL,
  conversation: OPENAI_CONVERSATION,
};

export const OPENAI_EFFORTS: readonly string[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

function formatOf(request: NeutralRequest, format: ResponseFormat): WireBody {
  switch (format.type) {
    case 'json_object':
      // A schema on json_object is Fireworks'; OpenAI only constrains to a schema with json_schema.
      if (format.schema) throw unsendable(request, 'responseFormat:json_object', LABEL.chat, 'a schema on json_object (use json_schema)');
      return { type: 'json_object' };
    case 'json_schema':
      return jsonSchemaFormat(format);
    default:
      return { type: format.type };
  }
}
