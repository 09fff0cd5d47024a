/**
 * `kind: anthropic`: what Anthropic's Messages API (`POST /v1/messages`) does
 * with every neutral field. It serves chat only; completions callers reach it
 * through the plan's rendering of a prompt as one user message.
 *
 * Choices made here:
 *  - `max_tokens` is required: the caller's, else `defaultMaxTokens` (to-wire-body.ts),
 *    with the thinking budget added when thinking is on.
 *  - reasoning: with `adaptiveThinking`, an effort is `thinking: {type: adaptive}` +
 *    `output_config.effort`, and a budget is refused here so that the plan sends the
 *    effort the ladder gives it; without it, the backend takes no graded effort, so the
 *    plan sends the ladder's budget for one, as `thinking: {type: enabled, budget_tokens}`
 *    (at least 1024, and below `max_tokens`). `none` is `{type: disabled}`, `adaptive`
 *    is `{type: adaptive}`.
 *  - `n` is fanned out by the proxy (Anthropic has no choices), as are prompt batches.
 *  - `user` is `metadata.user_id`; the service tiers are `auto` and `standard_only`
 *    (the neutral `default`), `priority` goes as `auto`, `flex` and the like are refused.
 *  - `cache_control` breakpoints go where they were (the request, tools, content parts).
 */
import {
  convert,
  copy,
  emulate,
  native,
  unsupported,
  type BackendTable,
  type FieldHandling,
  type FieldSupport,
  type WireBody,
} from '../../src/backend/field-support.js';
import type { ConversationWire } from '../../src/model/wire-form.js';
import { unsendable } from '../../src/backend/write-fields.js';
import { paramOf } from '../../src/model/neutral-fields.js';
import { budgetForEffort, MIN_THINKING_BUDGET } from '../../src/model/reasoning.js';
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import { toolChoiceField, toolsField } from './to-wire-tools.js';

export const LABEL = { chat: 'the Anthropic Messages API', text: 'the Anthropic Messages API' } as const;

/** The turns under `messages`, the system turn under `system`. */
const CONVERSATION: ConversationWire = { form: 'anthropic-messages', turns: 'messages', system: 'system' };

export interface AnthropicTableOptions {
  /** The models think adaptively (`adaptiveThinking`): efforts go as they are, budgets are the plan's to turn into efforts. */
  adaptiveThinking?: boolean;
  /** `max_tokens` when the caller gives none; a thinking budget is added on top of it. */
  defaultMaxTokens: number;
}

/** Budget thinking: `none` turns it off; graded efforts reach it as budgets (the plan's ladder). */
export const BUDGET_EFFORTS: readonly string[] = ['none'];
/** Adaptive thinking: Anthropic's `output_config.effort` levels, `none` and `adaptive`. */
export const ADAPTIVE_EFFORTS: readonly string[] = ['none', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive'];

/** `output_config`, shared by the effort and the output format. */
function outputConfig(body: WireBody): WireBody {
  const existing = body.output_config;
  if (existing && typeof existing === 'object' && !Array.isArray(existing)) return existing as WireBody;
  const config: WireBody = {};
  body.output_config = config;
  return config;
}

const responseFormat = convert('output_config.format {type: json_schema, schema}', (body, request) => {
  const format = request.responseFormat as Extract<ResponseFormat, { type: 'json_schema' }>;
  outputConfig(body).format = { type: 'json_schema', schema: format.schema };
});

const user = convert('metadata.user_id', (body, request) => {
  body.metadata = { user_id: request.user };
});

/**
 * Anthropic's tiers: `auto` (its priority capacity, when the organisation has some) and
 * `standard_only`, the neutral `default`. `priority` goes as `auto`, with a warning; a
 * tier it has nothing like (`flex`, `scale`) is a 400 naming the caller's field.
 */
const serviceTier = convert(
  'service_tier: auto, or standard_only for default; priority as auto',
  (body, request) => {
    const tier = request.serviceTier as string;
    if (tier === 'auto' || tier === 'standard_only') body.service_tier = tier;
    else if (tier === 'default') body.service_tier = 'standard_only';
    else if (tier === 'priority' || tier === 'fast') {
      body.service_tier = 'auto';
      request.warnings.push(
        `${paramOf(request, 'serviceTier')} "${tier}" was sent as "auto": Anthropic serves from priority capacity under auto when the organisation has it`,
      );
    } else
      throw unsendable(
        request,
        'serviceTier',
        LABEL.chat,
        `its tiers are auto, standard_only (default) and priority (as auto), not "${tier}"`,
      );
  },
  'service_tier',
);

const cacheControl = convert('cache_control, on the request, its tools and its content parts', (body, request) => {
  const cacheControl = request.vendor?.anthropic?.cacheControl;
  if (cacheControl) body.cache_control = { ...cacheControl };
});

function thinkingField({ adaptiveThinking, defaultMaxTokens }: AnthropicTableOptions): FieldHandling {
  const note = adaptiveThinking
    ? 'thinking {type: adaptive} + output_config.effort; none: {type: disabled}'
    : 'thinking {type: enabled, budget_tokens}; none: {type: disabled}';
  return convert(note, (body, request) => {
    const asked = request.reasoning;
    if (!asked) return;
    const { effort, budgetTokens } = asked;
    if (effort === 'none') {
      body.thinking = { type: 'disabled' };
    } else if (effort === 'adaptive') {
      body.thinking = { type: 'adaptive' };
    } else if (adaptiveThinking) {
      // A budget alone was the plan's to turn into an effort (this table refuses budgets).
      if (effort !== undefined) {
        body.thinking = { type: 'adaptive' };
        outputConfig(body).effort = effort;
      }
    } else {
      const budget = budgetTokens ?? (effort === undefined ? undefined : budgetForEffort(effort));
      if (budget !== undefined) enabledThinking(body, request, budget, defaultMaxTokens);
    }
  });
}

/**
 * `{type: enabled, budget_tokens}`: at least Anthropic's 1024, and below `max_tokens`
 * (thinking counts in it). Without the caller's `max_tokens`, the budget is added to the
 * default, so the answer keeps its room; with it, a budget that would not fit (one
 * the plan made from an effort) is halved to fit, each change named in a warning.
 */
function enabledThinking(body: WireBody, request: NeutralRequest, asked: number, defaultMaxTokens: number): void {
  const param = paramOf(request, 'reasoning.budgetTokens');
  let budget = asked;
  if (budget < MIN_THINKING_BUDGET) {
    request.warnings.push(`${param}: a thinking budget of ${asked} tokens was sent as ${MIN_THINKING_BUDGET}, the least Anthropic takes`);
    budget = MIN_THINKING_BUDGET;
  }
  const maxTokens = request.limits.maxTokens;
  if (maxTokens === undefined) {
    body.max_tokens = budget + defaultMaxTokens;
  } else if (budget >= maxTokens) {
    const maxParam = paramOf(request, 'limits.maxTokens');
    const fitted = Math.floor(maxTokens / 2);
    if (fitted < MIN_THINKING_BUDGET) {
      request.warnings.push(
        `${param}: thinking not sent: ${maxParam} ${maxTokens} leaves no room for Anthropic's least thinking budget (${MIN_THINKING_BUDGET} tokens, below ${maxParam})`,
      );
      return;
    }
    request.warnings.push(`${param}: a thinking budget of ${budget} tokens was sent as ${fitted}, to fit under ${maxParam} ${maxTokens}`);
    budget = fitted;
  }
  body.thinking = { type: 'enabled', budget_tokens: budget };
}

const customAsFunction = emulate(
  'each custom tool goes as a function with one string parameter, `input`, and its calls come back unwrapped; a grammar on the input is refused (a function argument takes none)',
);

/** The table for a backend with these settings: the reasoning rows differ with `adaptiveThinking`. */
export function anthropicTable(options: AnthropicTableOptions): BackendTable {
  const thinking = thinkingField(options);
  const fields: FieldSupport = {
    'sampling.temperature': copy('temperature'),
    'sampling.topP': copy('top_p'),
    'sampling.topK': copy('top_k'),
    'sampling.minP': unsupported('Anthropic has no min-p sampling'),
    'sampling.typicalP': unsupported('Anthropic has no typical-p sampling'),
    'sampling.presencePenalty': unsupported('Anthropic has no presence or frequency penalties'),
    'sampling.frequencyPenalty': unsupported('Anthropic has no presence or frequency penalties'),
    'sampling.repetitionPenalty': unsupported('Anthropic has no repetition penalty'),
    'sampling.mirostat': unsupported('Anthropic has no Mirostat sampler'),
    'sampling.seed': unsupported('Anthropic has no seed: its sampling cannot be made repeatable'),
    'sampling.logitBias': unsupported('Anthropic has no logit bias'),
    choices: emulate('one request per choice: Anthropic has no n'),
    'limits.stop': copy('stop_sequences'),
    'limits.maxTokens': copy('max_tokens'),
    'limits.ignoreEos': unsupported('Anthropic always stops at the end of its turn'),
    'limits.onContextOverflow': native('Anthropic answers 400 when the prompt does not fit'),
    'prompt:tokenIds': unsupported('Anthropic takes text, not token ids'),
    'prompt:batch': emulate('one request per prompt'),
    images: unsupported("Fireworks' top-level images; Anthropic takes images as content parts"),
    logprobs: unsupported('Anthropic returns no logprobs'),
    echo: unsupported('Anthropic does not echo the prompt'),
    'echo.lastTokens': unsupported('Anthropic does not echo the prompt'),
    tools: toolsField,
    'tools:custom': customAsFunction,
    toolChoice: toolChoiceField,
    parallelToolCalls: toolChoiceField,
    // Plain text is the default: nothing to send.
    'responseFormat:text': native('plain text is the default'),
    'responseFormat:json_object': unsupported('Anthropic constrains output to a JSON schema only: use json_schema'),
    'responseFormat:json_schema': responseFormat,
    'responseFormat:grammar': unsupported('Anthropic takes no grammar'),
    'reasoning.effort': thinking,
    'reasoning.budgetTokens': options.adaptiveThinking
      ? unsupported('its models think adaptively (adaptiveThinking): a budget is sent as the effort the ladder gives it')
      : thinking,
    'reasoning.history': unsupported('Anthropic decides itself which earlier thinking blocks count'),
    'reasoning.budgetEndText': unsupported('Anthropic has no budget end text'),
    prediction: unsupported('Anthropic has no predicted outputs'),
    returnTokenIds: unsupported('Anthropic returns no token ids'),
    'stream.tokenIds': unsupported('Anthropic returns no token ids'),
    rawOutput: unsupported('Anthropic returns no raw output'),
    perfMetricsInBody: emulate('the proxy reports its own timings (pipeline/answer/request-meter.ts)'),
    samplingMask: unsupported('Anthropic has no sampling mask'),
    promptCacheIsolationKey: unsupported('Anthropic has no prompt cache isolation key'),
    metadata: unsupported("Anthropic's metadata takes only user_id (sent from user)"),
    store: unsupported('Anthropic keeps no answers to retrieve later'),
    serviceTier,
    user,
    promptCacheKey: unsupported('Anthropic caches at cache_control breakpoints, not by key'),
    cacheControl,
    contextManagement: copy('context_management'),
    toolError: native('is_error on the tool_result block'),
  };
  return { fields, relayed: { chat: RELAYED, text: new Set() }, label: LABEL, conversation: { chat: CONVERSATION, text: CONVERSATION } };
}

/**
 * Anthropic's own request fields with no neutral meaning, which a caller of
 * the Messages dialect sends and only a backend that speaks Messages takes.
 */
const RELAYED: ReadonlySet<string> = new Set(['container', 'inference_geo', 'mcp_servers', 'speed', 'diagnostics']);
