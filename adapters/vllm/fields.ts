/**
 * `kind: vllm`: vLLM's OpenAI-compatible server, `/v1/chat/completions` and
 * `/v1/completions` with the extra parameters its protocol declares
 * (vllm/entrypoints/openai/{chat_completion,completion}/protocol.py). vLLM logs
 * and ignores fields it does not know, so everything it cannot honour is a 400,
 * never sent in hope.
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
 *  - tools need the server started with `--enable-auto-tool-choice` and a `--tool-call-parser`
 *    (else vLLM answers 400 itself).
 */
import {
  byEndpoint,
  chatOnly,
  convert,
  copy,
  emulate,
  native,
  NOTHING_RELAYED,
  unsupported,
  type BackendTable,
  type WireBody,
  OPENAI_CONVERSATION,
} from '../../src/backend/field-support.js';
import type { ResponseFormat } from '../../src/model/request.js';
import { echoNeedsTokens } from '../openai/split-echo.js';
import { toolChoiceField, toolsField } from '../openai/to-wire-tools.js';
import { jsonSchemaFormat } from '../openai/wire-formats.js';

const logprobs = convert(
  'chat: logprobs true + top_logprobs; completions: logprobs N',
  (body, { logprobs: asked, endpoint }) => {
    if (!asked) return;
    Object.assign(body, endpoint === 'chat' ? { logprobs: true, top_logprobs: asked.top } : { logprobs: asked.top });
  },
  'logprobs',
);

// Without logprobs, an echo of token ids cannot be told from the generated text: ask for the sampled token's only.
const echo = convert(
  'echo: true (prompt logprobs included)',
  (body, request) => {
    if (request.echo?.all) body.echo = true;
    if (!request.logprobs && echoNeedsTokens(request)) body.logprobs = 0;
  },
  'echo',
);

const responseFormat = convert('response_format, or structured_outputs for a grammar or a schema on json_object', (body, request) => {
  Object.assign(body, formatFields(request.responseFormat as ResponseFormat));
});

const customAsFunction = emulate(
  'each custom tool goes as a function with one string parameter, `input`, and its calls come back unwrapped; a grammar on the input is refused (a function argument takes none)',
);

const tokenIds = convert('return_token_ids', (body, request) => {
  if (request.returnTokenIds || request.stream?.tokenIds) body.return_token_ids = true;
});

export const VLLM_TABLE: BackendTable = {
  fields: {
    'sampling.temperature': copy('temperature'),
    'sampling.topP': copy('top_p'),
    'sampling.topK': copy('top_k'),
    'sampling.minP': copy('min_p'),
    'sampling.typicalP': unsupported('vLLM has no typical-p sampling'),
    'sampling.presencePenalty': copy('presence_penalty'),
    'sampling.frequencyPenalty': copy('frequency_penalty'),
    'sampling.repetitionPenalty': copy('repetition_penalty'),
    'sampling.mirostat': unsupported('vLLM has no Mirostat sampler'),
    'sampling.seed': copy('seed'),
    'sampling.logitBias': copy('logit_bias'),
    choices: copy('n'),
    'limits.stop': copy('stop'),
    'limits.maxTokens': byEndpoint({ chat: copy('max_completion_tokens'), text: copy('max_tokens') }),
    'limits.ignoreEos': copy('ignore_eos'),
    'limits.onContextOverflow': native('vLLM answers 400 when prompt + max_tokens exceed max_model_len'),
    'prompt:tokenIds': byEndpoint({ chat: unsupported('chat takes messages'), text: native('sent as given') }),
    'prompt:batch': byEndpoint({ chat: emulate('one request per prompt'), text: native('sent as given') }),
    images: unsupported('no top-level images (chat takes image parts)'),
    logprobs,
    echo: byEndpoint({ chat: unsupported('echo is a completions feature'), text: echo }),
    'echo.lastTokens': unsupported('vLLM echoes the whole prompt or nothing'),
    tools: chatOnly(toolsField),
    'tools:custom': chatOnly(customAsFunction),
    toolChoice: chatOnly(toolChoiceField),
    parallelToolCalls: chatOnly(copy('parallel_tool_calls')),
    'responseFormat:text': responseFormat,
    'responseFormat:json_object': responseFormat,
    'responseFormat:json_schema': responseFormat,
    'responseFormat:grammar': responseFormat,
    // `reasoning_effort: Literal["low", "medium", "high"]`, handed to the chat template.
    'reasoning.effort': chatOnly(copy('reasoning_effort')),
    'reasoning.budgetTokens': unsupported('vLLM takes no thinking budget'),
    'reasoning.history': unsupported('vLLM has no reasoning history setting'),
    'reasoning.budgetEndText': unsupported('vLLM takes no thinking budget'),
    prediction: unsupported('vLLM takes no prediction'),
    returnTokenIds: tokenIds,
    'stream.tokenIds': tokenIds,
    rawOutput: unsupported('vLLM returns no raw output'),
    perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
    samplingMask: unsupported('vLLM has no sampling mask'),
    promptCacheIsolationKey: copy('cache_salt'),
    metadata: unsupported('vLLM takes no metadata'),
    store: unsupported('vLLM has no store'),
    serviceTier: unsupported('vLLM has no service tiers'),
    user: copy('user'),
    promptCacheKey: unsupported('vLLM has no such field'),
    cacheControl: unsupported('no caching breakpoints: it caches prompt prefixes on its own'),
    contextManagement: unsupported('no server-side context editing'),
    toolError: unsupported('a tool result has no error flag: its content goes as it is'),
  },
  relayed: NOTHING_RELAYED,
  label: { chat: 'vLLM', text: 'vLLM completions' },
  conversation: OPENAI_CONVERSATION,
};

export const VLLM_EFFORTS: readonly string[] = ['low', 'medium', 'high'];

function formatFields(format: ResponseFormat): WireBody {
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
