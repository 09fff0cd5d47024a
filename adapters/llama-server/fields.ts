/**
 * `kind: llama-server`: what llama.cpp's own server really honours on
 * `/v1/chat/completions` and `/v1/completions` (tools/server/README.md and
 * server-schema.cpp, checked against the captures in shared/captures/llama-server).
 * It ignores fields it does not know, so everything it cannot honour is a 400,
 * never sent in hope.
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
 *    neither changes the output.
 */
import {
  byEndpoint,
  convert,
  copy,
  emulate,
  native,
  unsupported,
  NOTHING_RELAYED,
  type BackendTable,
  type FieldHandling,
  type WireBody,
  OPENAI_CONVERSATION,
} from '../../src/backend/field-support.js';
import { invalidRequest } from '../../src/errors/proxy-error.js';
import { paramOf } from '../../src/model/neutral-fields.js';
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { toolChoiceField, toolsField } from '../openai/to-wire-tools.js';
import { jsonSchemaFormat } from '../openai/wire-formats.js';

export interface LlamaServerTableOptions {
  /** The server runs with `--jinja`, so chat `tools` and `tool_choice` work (without it they are an HTTP 500). */
  jinja?: boolean;
  /**
   * The model's chat template takes tools (`/props` `chat_template_caps.supports_tools`); when
   * false, a `--jinja` server would render the chat without them and answer in plain text.
   */
  templateTools?: boolean;
}

const NO_TEMPLATE_TOOLS =
  "its model's chat template cannot take tools (/props: chat_template_caps.supports_tools is false), so they would be left out of the prompt without a word";

const NO_JINJA =
  'without --jinja it answers tools with an HTTP 500 (capture chat_tools_auto); set `jinja: true` for a server that runs with it';

const mirostat = convert('Mirostat 2.0: mirostat 2, mirostat_tau, mirostat_eta', (body, { sampling }) => {
  body.mirostat = 2;
  if (sampling.mirostat?.target !== undefined) body.mirostat_tau = sampling.mirostat.target;
  if (sampling.mirostat?.learningRate !== undefined) body.mirostat_eta = sampling.mirostat.learningRate;
});

/** llama.cpp seeds are uint32, and 4294967295 (-1 as uint32) means "pick a random seed": reproducibility would be lost. */
const seed = convert('seed, 0 to 4294967294', (body, request) => {
  const value = request.sampling.seed as number;
  if (!Number.isInteger(value) || value < 0 || value >= 0xffffffff) {
    const param = paramOf(request, 'sampling.seed');
    throw invalidRequest(
      param,
      `${param} ${value} is not supported by llama-server: its seeds are 32-bit, 0 to 4294967294 (it reads -1 as "random").`,
      'unsupported_parameter',
    );
  }
  body.seed = value;
});

const maxTokens = convert('max_tokens, at least 0', (body, request) => {
  const value = request.limits.maxTokens as number;
  if (value < 0) {
    const param = paramOf(request, 'limits.maxTokens');
    throw invalidRequest(param, `${param} must be at least 0 (got ${value}).`);
  }
  body.max_tokens = value;
});

const logprobs = convert(
  'n_probs: at least 1 (at 0 it returns none)',
  (body, { logprobs: asked, endpoint }) => {
    if (!asked) return;
    const top = Math.max(asked.top, 1);
    Object.assign(body, endpoint === 'chat' ? { logprobs: true, top_logprobs: top } : { logprobs: top });
  },
  'n_probs',
);

const responseFormat = convert(
  'chat: response_format; completions: json_schema; grammar: grammar',
  (body, request) => {
    Object.assign(body, formatFields(request.responseFormat as ResponseFormat, request.endpoint));
  },
  // Chat's; on completions the value's own field (json_schema, grammar).
  'response_format',
);

const customAsFunction = emulate(
  'each custom tool goes as a function with one string parameter, `input`, and its calls come back unwrapped; a grammar on the input is refused (a function argument takes none)',
);

/** Without tools there is nothing to choose: `auto` and `none` change nothing and are not sent. */
const toolChoiceWithoutTools = convert("only 'auto' and 'none', which change nothing without tools and are not sent", (_body, request) => {
  const choice = request.toolChoice;
  if (choice !== 'auto' && choice !== 'none')
    throw invalidRequest(
      paramOf(request, 'toolChoice'),
      `${paramOf(request, 'toolChoice')} is not supported by llama-server: ${NO_JINJA}.`,
      'unsupported_parameter',
    );
});

const toolChoiceWithoutTemplateTools = convert(
  "only 'auto' and 'none', which change nothing without tools and are not sent",
  (_body, request) => {
    const choice = request.toolChoice;
    if (choice !== 'auto' && choice !== 'none')
      throw invalidRequest(
        paramOf(request, 'toolChoice'),
        `${paramOf(request, 'toolChoice')} is not supported by llama-server: ${NO_TEMPLATE_TOOLS}.`,
        'unsupported_parameter',
      );
  },
);

/** The table for a server with or without `--jinja`, and a template that takes tools or not. */
export function llamaServerTable({ jinja = false, templateTools = true }: LlamaServerTableOptions = {}): BackendTable {
  const takesTools = jinja && templateTools;
  const tools: FieldHandling = takesTools ? toolsField : unsupported(jinja ? NO_TEMPLATE_TOOLS : NO_JINJA);
  const toolChoice: FieldHandling = takesTools ? toolChoiceField : jinja ? toolChoiceWithoutTemplateTools : toolChoiceWithoutTools;
  const noCompletionsTools = unsupported('/v1/completions takes no tools');
  return {
    fields: {
      'sampling.temperature': copy('temperature'),
      'sampling.topP': copy('top_p'),
      'sampling.topK': copy('top_k'),
      'sampling.minP': copy('min_p'),
      'sampling.typicalP': copy('typical_p'),
      'sampling.presencePenalty': copy('presence_penalty'),
      'sampling.frequencyPenalty': copy('frequency_penalty'),
      'sampling.repetitionPenalty': copy('repeat_penalty'),
      'sampling.mirostat': mirostat,
      'sampling.seed': seed,
      'sampling.logitBias': copy('logit_bias'),
      // `n` runs in parallel slots (seed + j per choice); more than the slot count (`-np`) is a 400 naming `n`.
      choices: copy('n'),
      'limits.stop': copy('stop'),
      'limits.maxTokens': maxTokens,
      'limits.ignoreEos': copy('ignore_eos'),
      'limits.onContextOverflow': unsupported(
        "it never fails a prompt + max_tokens that overflows: it stops at the slot's context (finish_reason length)",
      ),
      'prompt:tokenIds': byEndpoint({
        chat: unsupported('chat takes messages'),
        text: native('used verbatim, no BOS added (capture cmpl_prompt_token_ids_no_bos)'),
      }),
      'prompt:batch': byEndpoint({ chat: emulate('one request per prompt'), text: native('sent as given') }),
      images: unsupported('no top-level images (chat takes image parts)'),
      logprobs,
      echo: unsupported('ignored without a word: 200, nothing echoed (capture cmpl_echo_logprobs2)'),
      'echo.lastTokens': unsupported('ignored without a word: 200, nothing echoed (capture cmpl_echo_logprobs2)'),
      tools: byEndpoint({ chat: tools, text: noCompletionsTools }),
      'tools:custom': byEndpoint({ chat: takesTools ? customAsFunction : tools, text: noCompletionsTools }),
      toolChoice: byEndpoint({ chat: toolChoice, text: noCompletionsTools }),
      parallelToolCalls: byEndpoint({
        chat: takesTools ? copy('parallel_tool_calls') : native('changes nothing without tools, so it is not sent'),
        text: noCompletionsTools,
      }),
      'responseFormat:text': responseFormat,
      'responseFormat:json_object': responseFormat,
      'responseFormat:json_schema': responseFormat,
      'responseFormat:grammar': responseFormat,
      'reasoning.effort': unsupported(
        'reasoning_effort only reaches a thinking-capable Jinja template (chat_template_kwargs), so nothing is promised',
      ),
      'reasoning.budgetTokens': unsupported('no thinking budget'),
      'reasoning.history': unsupported('no reasoning history setting'),
      'reasoning.budgetEndText': unsupported('no thinking budget'),
      prediction: unsupported('no speculation field'),
      returnTokenIds: unsupported('token ids only come from its native /completion (return_tokens), never from the OpenAI endpoints'),
      'stream.tokenIds': unsupported('token ids only come from its native /completion (return_tokens), never from the OpenAI endpoints'),
      rawOutput: unsupported('no raw output'),
      perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
      samplingMask: unsupported('no sampling mask'),
      promptCacheIsolationKey: unsupported('no prompt cache isolation key'),
      metadata: unsupported('no metadata'),
      store: unsupported('no store'),
      serviceTier: unsupported('no service tiers'),
      user: unsupported('no such field'),
      promptCacheKey: unsupported('no such field'),
      cacheControl: unsupported('no caching breakpoints: it caches prompt prefixes on its own'),
      contextManagement: unsupported('no server-side context editing'),
      toolError: unsupported('a tool result has no error flag: its content goes as it is'),
    },
    relayed: NOTHING_RELAYED,
    label: { chat: 'llama-server', text: 'llama-server completions' },
    conversation: OPENAI_CONVERSATION,
  };
}

function formatFields(format: ResponseFormat, endpoint: NeutralRequest['endpoint']): WireBody {
  if (format.type === 'text') return endpoint === 'chat' ? { response_format: { type: 'text' } } : {};
  if (format.type === 'grammar') return { grammar: format.grammar };
  if (endpoint === 'text') return { json_schema: format.schema ?? {} };
  if (format.type === 'json_schema') return { response_format: jsonSchemaFormat(format) };
  return { response_format: format.schema ? { type: 'json_object', schema: format.schema } : { type: 'json_object' } };
}
