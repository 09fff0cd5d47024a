/** Responses -> Chat Completions: each Responses field's rule (see migration.ts). */
import type { ResponsesField } from '../../dialects/openai-responses/request-fields.js';
import { isRecord } from '../../model/is-record.js';
import {
  drop,
  LOGPROBS_INCLUDE,
  migrate,
  once,
  ordered,
  same,
  type ChangeList,
  type Migration,
  type Rule,
  type Wire,
} from './migration.js';
import { isSet } from '../../model/is-set.js';
import { responsesConversation } from './input-to-chat-messages.js';

/**
 * A Responses body as the Chat Completions body it would become.
 * @example responsesToChat({model: 'm', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 64})
 * // body: {model: 'm', messages: [{role: 'system', content: 'Be brief.'}, {role: 'user', content: 'Hi'}], max_completion_tokens: 64}
 */
export function responsesToChat(body: Readonly<Record<string, unknown>>): Migration {
  const migration = migrate(body, RESPONSES_RULES, ['model', 'messages'], 'Responses API');
  // Neither input nor instructions: the Responses API still answers, from nothing.
  if (!('messages' in migration.body)) migration.body = ordered({ ...migration.body, messages: [] }, ['model', 'messages']);
  return migration;
}

const STATEFUL = 'the Chat Completions API keeps no state: send the earlier turns in messages';

/** `include` + `top_logprobs` -> `logprobs: true` + `top_logprobs`; the other include values have no counterpart. */
const responsesLogprobs = once('logprobs', ({ source, target, changes }) => {
  const include = Array.isArray(source.include) ? source.include : [];
  const top = source.top_logprobs;
  const asked = include.includes(LOGPROBS_INCLUDE) || typeof top === 'number';
  if (asked) {
    target.logprobs = true;
    if (typeof top === 'number') target.top_logprobs = top;
  }
  include.forEach((value, i) => {
    const at = `include[${i}]`;
    if (value === LOGPROBS_INCLUDE) changes.converted(at, 'logprobs', 'chat asks for logprobs with logprobs: true');
    else if (value === 'reasoning.encrypted_content')
      changes.dropped(
        at,
        'chat has no encrypted reasoning: the reasoning comes back as text (reasoning_content) where the backend gives it',
      );
    else changes.dropped(at, `names an output of a hosted tool or an input image URL: chat has no place for ${String(value)}`, false);
  });
  if (typeof top === 'number' && !include.includes(LOGPROBS_INCLUDE))
    changes.converted('top_logprobs', 'logprobs', 'chat needs logprobs: true beside top_logprobs');
});

/** `text.format` -> `response_format`; `text.verbosity` -> `verbosity`. */
const responsesText: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return;
  const { format, verbosity } = value;
  if (isRecord(format)) {
    if (format.type === 'json_schema') {
      const { type, ...spec } = format;
      target.response_format = { type, json_schema: spec };
      changes.converted(
        `${field}.format`,
        'response_format',
        "response_format, with the format's name, schema, description and strict under json_schema",
      );
    } else {
      target.response_format = format;
      changes.renamed(`${field}.format`, 'response_format', 'chat calls it response_format');
    }
  }
  if (isSet(verbosity)) {
    target.verbosity = verbosity;
    changes.renamed(`${field}.verbosity`, 'verbosity', 'chat calls it verbosity');
  }
};

const responsesReasoning: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return;
  for (const [key, option] of Object.entries(value)) {
    if (!isSet(option)) continue;
    if (key === 'effort') {
      target.reasoning_effort = option;
      changes.renamed(`${field}.effort`, 'reasoning_effort', 'chat takes the effort as reasoning_effort');
    } else if (key === 'summary' || key === 'generate_summary') {
      changes.dropped(
        `${field}.${key}`,
        'chat has no reasoning summaries: the reasoning comes back whole, as reasoning_content, where the backend gives it',
      );
    } else changes.dropped(`${field}.${key}`, 'chat has no counterpart');
  }
};

/** A Responses tool (`{type: 'function', name, ...}`) -> a chat tool (`{type: 'function', function: {...}}`). */
function nestedTool(tool: unknown, path: string, changes: ChangeList): Wire | undefined {
  if (!isRecord(tool)) return undefined;
  if (tool.type === 'function') {
    const fn: Wire = { name: tool.name };
    for (const key of ['description', 'parameters', 'strict']) if (isSet(tool[key])) fn[key] = tool[key];
    for (const key of ['output_schema', 'defer_loading', 'allowed_callers'])
      if (isSet(tool[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart');
    return { type: 'function', function: fn };
  }
  if (tool.type === 'custom') {
    const custom: Wire = { name: tool.name };
    if (isSet(tool.description)) custom.description = tool.description;
    const { format } = tool;
    if (isRecord(format))
      custom.format =
        format.type === 'grammar' ? { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } } : format;
    for (const key of ['defer_loading', 'allowed_callers'])
      if (isSet(tool[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart');
    return { type: 'custom', custom };
  }
  changes.dropped(
    path,
    `${String(tool.type)} is a hosted tool, which runs at OpenAI: chat has no hosted tools (declare your own function tool)`,
  );
  return undefined;
}

const responsesTools: Rule = (value, field, { target, changes }) => {
  if (!Array.isArray(value)) return;
  target.tools = value.map((tool, i) => nestedTool(tool, `${field}[${i}]`, changes)).filter((tool) => tool !== undefined);
  changes.converted(field, 'tools', "name, description, parameters and strict under function (a custom tool's under custom)");
};

const responsesToolChoice: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) {
    target.tool_choice = value;
    return;
  }
  const named = (entry: Wire) => ({ type: entry.type, [String(entry.type)]: { name: entry.name } });
  if (value.type === 'function' || value.type === 'custom') {
    target.tool_choice = named(value);
    changes.converted(field, 'tool_choice', `the tool's name sits under ${String(value.type)}`);
  } else if (value.type === 'allowed_tools') {
    const tools = Array.isArray(value.tools) ? value.tools.filter(isRecord).map(named) : [];
    target.tool_choice = { type: 'allowed_tools', allowed_tools: { mode: value.mode, tools } };
    changes.converted(field, 'tool_choice', 'mode and tools sit under allowed_tools, each tool named under its type');
  } else {
    changes.dropped(field, `${String(value.type)} is a hosted tool, which runs at OpenAI: chat has no hosted tools`);
  }
};

const responsesStream: Rule = (value, field, { target, changes, source }) => {
  target.stream = value;
  if (value !== true) return;
  const options = isRecord(source.stream_options) ? source.stream_options : {};
  target.stream_options = {
    include_usage: true,
    ...(isSet(options.include_obfuscation) ? { include_obfuscation: options.include_obfuscation } : {}),
  };
  changes.converted(
    field,
    'stream_options.include_usage',
    'a Responses stream always ends with the usage; chat sends it when stream_options.include_usage is true',
  );
};

const responsesTruncation: Rule = (value, field, { target, changes }) => {
  if (value !== 'auto' && value !== 'disabled') return;
  target.context_length_exceeded_behavior = value === 'auto' ? 'truncate' : 'error';
  changes.converted(
    field,
    'context_length_exceeded_behavior',
    `context_length_exceeded_behavior "${String(target.context_length_exceeded_behavior)}": Fireworks' chat field (OpenAI's chat API has none, and fails a prompt that does not fit)`,
  );
};

const RESPONSES_RULES: Readonly<Record<ResponsesField, Rule>> = {
  model: same,
  input: once('conversation', (context) => responsesConversation(context)),
  instructions: once('conversation', (context) => responsesConversation(context)),
  max_output_tokens: (value, field, { target, changes }) => {
    target.max_completion_tokens = value;
    changes.renamed(field, 'max_completion_tokens', 'chat calls it max_completion_tokens');
  },
  temperature: same,
  top_p: same,
  top_logprobs: responsesLogprobs,
  include: responsesLogprobs,
  tools: responsesTools,
  tool_choice: responsesToolChoice,
  parallel_tool_calls: same,
  max_tool_calls: drop('limits calls of hosted tools, which chat does not have: nothing to limit', false),
  text: responsesText,
  reasoning: responsesReasoning,
  metadata: same,
  user: same,
  safety_identifier: same,
  prompt_cache_key: same,
  prompt_cache_retention: same,
  prompt_cache_options: same,
  service_tier: same,
  truncation: responsesTruncation,
  stream: responsesStream,
  stream_options: (value, field, { source, changes }) => {
    // include_obfuscation goes with stream (chat's stream_options has it too); a stream_options without stream asks for nothing.
    if (source.stream !== true && isRecord(value) && Object.keys(value).length > 0)
      changes.dropped(field, 'without stream it asks for nothing', false);
  },
  store: (value, field, { target, changes }) => {
    target.store = value;
    if (value === true)
      changes.converted(
        field,
        'store',
        'another meaning: the Responses API stores the response so previous_response_id can continue it; chat stores the completion for evals and distillation',
        true,
      );
  },
  background: drop(`background runs need stored responses; ${STATEFUL}`),
  previous_response_id: drop(STATEFUL),
  conversation: drop(`conversations are stored by OpenAI; ${STATEFUL}`),
  prompt: drop('prompt templates are stored by OpenAI: send their text in messages'),
  context_management: drop('server-side compaction: chat sends the whole conversation'),
  moderation: same,
  client_metadata: drop("a client's own metadata (Codex CLI's): it changes nothing in the answer, and chat has no field for it", false),
};
