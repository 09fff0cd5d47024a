/** Chat Completions -> Responses: each chat field's rule (see migration.ts). */
import type { ChatField } from '../../dialects/openai-chat/request-fields.js';
import { isRecord } from '../../model/is-record.js';
import { effortForBudget, normalizeReasoning } from '../../model/reasoning.js';
import { chatMessages } from './chat-messages-to-input.js';
import {
  drop,
  fireworks,
  LOGPROBS_INCLUDE,
  migrate,
  MIN_OUTPUT_TOKENS,
  once,
  same,
  type ChangeList,
  type Migration,
  type Rule,
  type Wire,
} from './migration.js';
import { isSet } from '../../model/is-set.js';

/**
 * A Chat Completions body as the Responses body it would become.
 * @example chatToResponses({model: 'm', messages: [{role: 'system', content: 'Be brief.'}, {role: 'user', content: 'Hi'}], max_tokens: 64})
 * // body: {model: 'm', instructions: 'Be brief.', input: [{role: 'user', content: 'Hi'}], max_output_tokens: 64}
 */
export function chatToResponses(body: Readonly<Record<string, unknown>>): Migration {
  return migrate(body, CHAT_RULES, ['model', 'instructions', 'input'], 'Chat Completions API');
}

const maxOutputTokens: Rule = (value, field, { target, changes }) => {
  if (typeof value !== 'number') return changes.dropped(field, `${field} must be a number`);
  if (value < MIN_OUTPUT_TOKENS) {
    target.max_output_tokens = MIN_OUTPUT_TOKENS;
    return changes.converted(
      field,
      'max_output_tokens',
      `raised from ${value} to ${MIN_OUTPUT_TOKENS}, the smallest max_output_tokens the Responses API takes`,
      true,
    );
  }
  target.max_output_tokens = value;
  changes.renamed(field, 'max_output_tokens', 'the Responses API calls it max_output_tokens');
};

/** `logprobs` + `top_logprobs` -> `include: ['message.output_text.logprobs']` + `top_logprobs`. */
const chatLogprobs = once('logprobs', ({ source, target, changes }) => {
  const { logprobs, top_logprobs: top } = source;
  if (logprobs === true || (typeof logprobs === 'number' && Number.isInteger(logprobs))) {
    target.include = [LOGPROBS_INCLUDE];
    const count = typeof top === 'number' ? top : typeof logprobs === 'number' ? logprobs : undefined;
    if (count !== undefined) target.top_logprobs = count;
    if (logprobs === true) changes.converted('logprobs', 'include', `asked for by include ["${LOGPROBS_INCLUDE}"]`);
    else
      changes.converted(
        'logprobs',
        'include',
        `asked for by include ["${LOGPROBS_INCLUDE}"]; Fireworks' integer logprobs ${logprobs} is top_logprobs ${String(count)}`,
      );
    return;
  }
  if (logprobs === false) changes.dropped('logprobs', 'false is the default: no logprobs', false);
  if (isSet(top)) changes.dropped('top_logprobs', 'without logprobs it asks for nothing');
});

/** `reasoning_effort`, `thinking`, `reasoning_history` -> `reasoning.effort`: one named effort, nothing else. */
const chatReasoning = once('reasoning', ({ source, target, changes }) => {
  const present = (['reasoning_effort', 'thinking', 'reasoning_history'] as const).filter((field) => isSet(source[field]));
  let normalized;
  try {
    normalized = normalizeReasoning(source);
  } catch (error) {
    for (const field of present) changes.dropped(field, (error as Error).message);
    return;
  }
  const { reasoning, origins } = normalized;
  const effortFrom = origins['reasoning.effort'];
  const budgetFrom = origins['reasoning.budgetTokens'];
  if (reasoning.effort !== undefined) {
    target.reasoning = { effort: reasoning.effort };
    if (effortFrom === 'reasoning_effort' && typeof source.reasoning_effort === 'string') {
      changes.renamed('reasoning_effort', 'reasoning.effort', 'the Responses API takes the effort as reasoning.effort');
    } else if (effortFrom !== undefined) {
      changes.converted(effortFrom, 'reasoning.effort', `the Responses API takes a named effort: reasoning.effort "${reasoning.effort}"`);
    }
    if (reasoning.budgetTokens !== undefined && budgetFrom !== undefined) {
      changes.dropped(
        budgetFrom,
        `a budget of ${reasoning.budgetTokens} thinking tokens: the Responses API takes a named effort only (reasoning.effort "${reasoning.effort}" is kept)`,
      );
    }
  } else if (reasoning.budgetTokens !== undefined && budgetFrom !== undefined) {
    const effort = effortForBudget(reasoning.budgetTokens);
    target.reasoning = { effort };
    changes.converted(
      budgetFrom,
      'reasoning.effort',
      `a budget of ${reasoning.budgetTokens} thinking tokens is sent as reasoning.effort "${effort}" (the Responses API takes a named effort, not a budget)`,
      true,
    );
  }
  if (reasoning.history !== undefined) {
    changes.dropped(
      origins['reasoning.history'] ?? 'reasoning_history',
      "how earlier turns' reasoning is kept: a Fireworks extension of chat; the Responses API has none (send reasoning items in input, or leave them out)",
    );
  }
  if (reasoning.budgetEndText !== undefined)
    changes.dropped('thinking.budget_end_str', 'a Fireworks extension of chat; the Responses API has none');
  if (
    effortFrom !== 'reasoning_effort' &&
    typeof source.reasoning_effort === 'string' &&
    reasoning.effort !== undefined &&
    source.reasoning_effort !== reasoning.effort
  ) {
    changes.dropped('reasoning_effort', `overridden by ${effortFrom ?? 'thinking'}`);
  }
});

/** `response_format` -> `text.format`: json_schema's fields sit beside `type`, not under `json_schema`. */
const chatResponseFormat: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return changes.dropped(field, 'not an object');
  const text = (target.text ??= {}) as Wire;
  switch (value.type) {
    case 'text':
    case undefined:
      text.format = { type: 'text' };
      return changes.renamed(field, 'text.format', 'the Responses API calls it text.format');
    case 'json_object':
      if (isRecord(value.schema)) {
        text.format = { type: 'json_schema', name: 'response', schema: value.schema };
        return changes.converted(
          field,
          'text.format',
          'Fireworks\' json_object with a schema is a json_schema format (named "response": the Responses API needs a name)',
        );
      }
      text.format = { type: 'json_object' };
      return changes.renamed(field, 'text.format', 'the Responses API calls it text.format');
    case 'json_schema': {
      const spec = isRecord(value.json_schema) ? value.json_schema : {};
      const format: Wire = { type: 'json_schema', name: typeof spec.name === 'string' ? spec.name : 'response' };
      for (const key of ['description', 'schema', 'strict']) if (isSet(spec[key])) format[key] = spec[key];
      format.schema ??= {};
      text.format = format;
      return changes.converted(
        field,
        'text.format',
        "text.format, with the json_schema object's name, schema, description and strict beside type",
      );
    }
    default:
      return changes.dropped(field, `a ${String(value.type)} response format: a Fireworks extension of chat; the Responses API has none`);
  }
};

/** A chat tool (`{type: 'function', function: {...}}`) -> a Responses tool (`{type: 'function', name, ...}`). */
function flatTool(tool: unknown, path: string, changes: ChangeList): Wire | undefined {
  if (!isRecord(tool)) return undefined;
  if (tool.type === 'custom' && isRecord(tool.custom)) {
    const { name, description, format } = tool.custom;
    const out: Wire = { type: 'custom', name };
    if (isSet(description)) out.description = description;
    if (isRecord(format))
      out.format =
        format.type === 'grammar' && isRecord(format.grammar)
          ? { type: 'grammar', syntax: format.grammar.syntax, definition: format.grammar.definition }
          : format;
    return out;
  }
  const fn = isRecord(tool.function) ? tool.function : undefined;
  if (tool.type !== 'function' || !fn) {
    changes.dropped(
      path,
      `a tool of type ${String(tool.type)}: the Responses API takes function and custom tools (and its own hosted tools)`,
    );
    return undefined;
  }
  const out: Wire = { type: 'function', name: fn.name };
  for (const key of ['description', 'parameters', 'strict']) if (isSet(fn[key])) out[key] = fn[key];
  return out;
}

const chatTools: Rule = (value, field, { target, changes }) => {
  if (!Array.isArray(value)) return changes.dropped(field, 'not an array');
  target.tools = value.map((tool, i) => flatTool(tool, `${field}[${i}]`, changes)).filter((tool) => tool !== undefined);
  changes.converted(field, 'tools', 'name, description, parameters and strict beside type, no function wrapper');
};

/** A chat tool choice -> the Responses one: a named tool's name beside its type; allowed_tools' mode and list at the top. */
function flatToolChoice(value: unknown): unknown {
  if (value === 'any') return 'required';
  if (!isRecord(value)) return value;
  const nameOf = (entry: Wire) =>
    isRecord(entry.function) ? entry.function.name : isRecord(entry.custom) ? entry.custom.name : entry.name;
  if (value.type === 'function' || value.type === 'custom') return { type: value.type, name: nameOf(value) };
  if (value.type === 'allowed_tools') {
    const spec = isRecord(value.allowed_tools) ? value.allowed_tools : {};
    const tools = Array.isArray(spec.tools)
      ? spec.tools.filter(isRecord).map((entry) => ({ type: entry.type ?? 'function', name: nameOf(entry) }))
      : [];
    return { type: 'allowed_tools', mode: spec.mode, tools };
  }
  return value;
}

const chatToolChoice: Rule = (value, field, { target, changes }) => {
  target.tool_choice = flatToolChoice(value);
  if (value === 'any') changes.converted(field, 'tool_choice', 'Fireworks\' "any" is "required"');
  else if (isRecord(value))
    changes.converted(
      field,
      'tool_choice',
      value.type === 'allowed_tools'
        ? 'mode and tools sit beside type (no allowed_tools wrapper), each tool as {type, name}'
        : "the tool's name sits beside type (no wrapper)",
    );
};

/** Legacy `functions` and `function_call`: function tools and a tool choice. */
const chatFunctions: Rule = (value, field, { target, changes }) => {
  if (!Array.isArray(value)) return changes.dropped(field, 'not an array');
  target.tools = value.filter(isRecord).map((fn) => {
    const out: Wire = { type: 'function', name: fn.name };
    for (const key of ['description', 'parameters']) if (isSet(fn[key])) out[key] = fn[key];
    return out;
  });
  changes.converted(field, 'tools', 'legacy functions are function tools; the answer has function_call items, not a function_call message');
};

const chatFunctionCall: Rule = (value, field, { target, changes }) => {
  target.tool_choice = isRecord(value) ? { type: 'function', name: value.name } : value;
  changes.converted(field, 'tool_choice', 'the legacy function_call is a tool choice');
};

/** `stream_options`: usage is always on in a Responses stream; include_obfuscation is the Responses API's too. */
const chatStream: Rule = (value, field, { target, changes, source }) => {
  target.stream = value;
  if (value !== true) return;
  const options = isRecord(source.stream_options) ? source.stream_options : {};
  if (options.include_usage !== true) {
    changes.converted(
      'stream_options.include_usage',
      undefined,
      'always on: a Responses stream ends with the usage, in response.completed',
    );
  }
};

const chatStreamOptions: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return;
  const kept: Wire = {};
  for (const [key, option] of Object.entries(value)) {
    if (!isSet(option)) continue;
    if (key === 'include_usage') {
      if (option === true)
        changes.converted(`${field}.include_usage`, undefined, 'always on: a Responses stream ends with the usage, in response.completed');
    } else if (key === 'include_obfuscation') kept[key] = option;
    else if (key === 'include_internal_content')
      changes.dropped(`${field}.${key}`, 'token ids on each delta: a Fireworks extension of chat; the Responses API has none');
    else changes.dropped(`${field}.${key}`, 'stream buffering: a Fireworks extension of chat; the Responses API has none');
  }
  if (Object.keys(kept).length > 0 && target.stream !== false) target.stream_options = kept;
};

const chatStore: Rule = (value, field, { target, changes }) => {
  target.store = value;
  if (value === true) {
    changes.converted(
      field,
      'store',
      'another meaning: chat stores the completion for evals and distillation; the Responses API stores the response so previous_response_id can continue it (its default is true)',
      true,
    );
  }
};

/** Fireworks' context_length_exceeded_behavior is the Responses API's truncation. */
const chatOverflow: Rule = (value, field, { target, changes }) => {
  if (value !== 'truncate' && value !== 'error') return changes.dropped(field, `unknown value ${JSON.stringify(value)}`);
  target.truncation = value === 'truncate' ? 'auto' : 'disabled';
  changes.converted(
    field,
    'truncation',
    `truncation "${String(target.truncation)}" (a Fireworks extension of chat; the Responses API has truncation)`,
  );
};

const CHAT_RULES: Readonly<Record<ChatField, Rule>> = {
  model: same,
  messages: (value, field, context) => chatMessages(value, field, context),
  user: same,
  prompt_cache_key: same,
  prompt_cache_isolation_key: fireworks('prompt cache isolation'),
  raw_output: fireworks('the raw output'),
  perf_metrics_in_response: fireworks('timings in the answer'),
  n: (value, field, { changes }) => {
    if (value === 1) changes.dropped(field, '1 is the default: the Responses API makes one answer per request', false);
    else changes.dropped(field, `the Responses API makes one answer per request: send ${String(value)} requests`);
  },
  service_tier: same,
  stop: drop('the Responses API has no stop sequences'),
  max_tokens: maxOutputTokens,
  max_completion_tokens: maxOutputTokens,
  temperature: same,
  top_p: same,
  top_k: fireworks('top-k sampling'),
  min_p: fireworks('min-p sampling'),
  typical_p: fireworks('typical-p sampling'),
  repetition_penalty: fireworks('repetition_penalty'),
  mirostat_target: fireworks('Mirostat sampling'),
  mirostat_lr: fireworks('Mirostat sampling'),
  frequency_penalty: drop('the Responses API has no frequency penalty'),
  presence_penalty: drop('the Responses API has no presence penalty'),
  seed: drop('the Responses API has no seed'),
  logit_bias: drop('the Responses API has no logit bias'),
  logprobs: chatLogprobs,
  top_logprobs: chatLogprobs,
  sampling_mask: fireworks('the sampling mask'),
  echo: fireworks('echo'),
  echo_last: fireworks('echo'),
  ignore_eos: fireworks('ignore_eos'),
  context_length_exceeded_behavior: chatOverflow,
  response_format: chatResponseFormat,
  speculation: fireworks('speculation'),
  prediction: drop('the Responses API has no predicted outputs'),
  metadata: same,
  reasoning_effort: chatReasoning,
  reasoning_history: chatReasoning,
  thinking: chatReasoning,
  return_token_ids: fireworks('token ids in the answer'),
  stream: chatStream,
  stream_options: chatStreamOptions,
  store: chatStore,
  tools: chatTools,
  tool_choice: chatToolChoice,
  parallel_tool_calls: same,
  functions: chatFunctions,
  function_call: chatFunctionCall,
  modalities: (value, field, { changes }) => {
    const textOnly = Array.isArray(value) && value.every((modality) => modality === 'text');
    changes.dropped(
      field,
      textOnly ? 'text is what the Responses API answers with' : 'the Responses API answers in text only: no audio output',
      !textOnly,
    );
  },
  audio: drop('the Responses API answers in text only: no audio output'),
  verbosity: (value, field, { target, changes }) => {
    const text = (target.text ??= {}) as Wire;
    text.verbosity = value;
    changes.renamed(field, 'text.verbosity', 'the Responses API calls it text.verbosity');
  },
  web_search_options: drop(
    'web search is a hosted tool in the Responses API: tools [{"type": "web_search"}] (the proxy runs no hosted tools)',
  ),
  safety_identifier: same,
  prompt_cache_retention: same,
  prompt_cache_options: same,
  moderation: same,
  prompt_truncate_len: fireworks('prompt truncation'),
  safe_tokenization: fireworks('safe_tokenization'),
};
