/**
 * A request moved between OpenAI's two APIs: a Chat Completions body as the
 * Responses body it would become (`chatToResponses`), and back
 * (`responsesToChat`), with every change on the way, in the shape of the
 * translation report's changes (pipeline/translation-report.ts):
 *
 *  - renamed:   the same value under another name (max_completion_tokens -> max_output_tokens)
 *  - converted: the same meaning in another form (messages -> instructions + input items,
 *               the tools' nesting, response_format -> text.format); lossy when approximated
 *  - dropped:   no counterpart (stop, seed, n > 1, previous_response_id...); lossy, except
 *               for a value that only restates the default (n: 1, modalities ["text"]) or
 *               bookkeeping the other API does not read (an output item's id and status)
 *
 * Both functions are pure: no I/O, the input is not modified. They expect a body
 * the source dialect accepts (`dialect-proxy translate --as` checks it first)
 * and write one the target dialect accepts; each wire field of either dialect
 * has a rule below (the tables are typed by the dialects' field lists, so a
 * field added to a dialect does not compile until it has one).
 */
import type { ChatField } from '../dialects/openai-chat/request-fields.js';
import type { ResponsesField } from '../dialects/openai-responses/request-fields.js';
import { isRecord } from '../model/is-record.js';
import { effortForBudget, normalizeReasoning } from '../model/reasoning.js';
import type { Change } from '../pipeline/translation-report.js';

type Wire = Record<string, unknown>;

export interface Migration {
  /** The request in the other API. */
  body: Record<string, unknown>;
  /** Every change, what is lost first (as the translation report orders them). */
  changes: Change[];
}

/** lossless: only names and forms change; lossy: something is dropped or approximated. */
export type MigrationVerdict = 'lossless' | 'lossy';

export function migrationVerdict(changes: readonly Change[]): MigrationVerdict {
  return changes.some((change) => change.lossy) ? 'lossy' : 'lossless';
}

/** The Responses API asks for logprobs by naming this output in `include`. */
const LOGPROBS_INCLUDE = 'message.output_text.logprobs';
/** The smallest `max_output_tokens` the Responses API takes. */
export const MIN_OUTPUT_TOKENS = 16;

const isSet = (value: unknown): boolean => value !== null && value !== undefined;

/** `messages[3].content[0]` -> `messages[*].content[*]`. */
const pattern = (path: string) => path.replace(/\[\d+\]/g, '[*]');

/** Paths of one pattern as one: `[*]` where their indices differ (`messages[*].content[0]`). */
function commonPath(paths: readonly string[]): string {
  const split = (path: string) => path.split(/(\[\d+\])/);
  const [first, ...rest] = paths.map(split);
  return first.map((piece, i) => (rest.every((other) => other[i] === piece) ? piece : '[*]')).join('');
}

/**
 * The changes of one migration. The same change at several places (every
 * text part, every tool message) is listed once, under `[*]`.
 */
class ChangeList {
  private readonly list: Change[] = [];

  renamed(field: string, to: string, reason: string): void {
    this.list.push({ field, action: 'renamed', to, lossy: false, reason });
  }

  converted(field: string, to: string | undefined, reason: string, lossy = false): void {
    this.list.push({ field, action: 'converted', ...(to !== undefined && to !== field ? { to } : {}), lossy, reason });
  }

  dropped(field: string, reason: string, lossy = true): void {
    this.list.push({ field, action: 'dropped', lossy, reason });
  }

  result(): Change[] {
    const groups = new Map<string, Change[]>();
    for (const change of this.list) {
      const key = `${pattern(change.field)}\u0000${change.action}\u0000${pattern(change.to ?? '')}\u0000${change.reason}`;
      const group = groups.get(key);
      if (group) group.push(change);
      else groups.set(key, [change]);
    }
    const merged = [...groups.values()].map((group) => {
      const [first] = group;
      if (group.length === 1) return first;
      const to = first.to === undefined ? undefined : commonPath(group.map((change) => change.to as string));
      const field = commonPath(group.map((change) => change.field));
      return { field, action: first.action, ...(to !== undefined ? { to } : {}), lossy: group.some((change) => change.lossy), reason: first.reason };
    });
    // What is lost first (dropped, then approximated), then the rest, then what is left out at no loss; each in the order found.
    const rank = (change: Change) => (change.action === 'dropped' ? (change.lossy ? 0 : 3) : change.lossy ? 1 : 2);
    return merged.map((change, i) => ({ change, i })).sort((a, b) => rank(a.change) - rank(b.change) || a.i - b.i).map(({ change }) => change);
  }
}

/** One field's rule: reads the source body, writes the target body, says what changed. */
interface Context {
  source: Readonly<Wire>;
  target: Wire;
  changes: ChangeList;
  /** Rules that read several fields at once (logprobs, reasoning) run once. */
  done: Set<string>;
}

type Rule = (value: unknown, field: string, context: Context) => void;

/** The same name and value in both APIs. */
const same: Rule = (value, field, { target }) => {
  target[field] = value;
};

/** No counterpart: not sent. */
const drop = (reason: string, lossy = true): Rule => (_value, field, { changes }) => changes.dropped(field, reason, lossy);

/** A Fireworks extension of chat. */
const fireworks = (what: string): Rule => drop(`${what}: a Fireworks extension of chat; the Responses API has none`);

/** Runs `rule` once for a group of fields read together. */
const once = (group: string, rule: (context: Context) => void): Rule => (_value, _field, context) => {
  if (context.done.has(group)) return;
  context.done.add(group);
  rule(context);
};

/** The body in a readable order: these keys first, then the rest as written. */
function ordered(body: Wire, first: readonly string[]): Wire {
  const out: Wire = {};
  for (const key of first) if (key in body) out[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in out)) out[key] = value;
  return out;
}

function migrate<Field extends string>(body: Readonly<Wire>, rules: Readonly<Record<Field, Rule>>, first: readonly string[], api: string): Migration {
  const context: Context = { source: body, target: {}, changes: new ChangeList(), done: new Set() };
  for (const [field, value] of Object.entries(body)) {
    if (!isSet(value)) continue;
    const rule = (rules as Readonly<Record<string, Rule | undefined>>)[field];
    if (rule) rule(value, field, context);
    else context.changes.dropped(field, `not a field of the ${api}`);
  }
  return { body: ordered(context.target, first), changes: context.changes.result() };
}

// ------------------------------------------------------------------------------------------
// Chat Completions -> Responses
// ------------------------------------------------------------------------------------------

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
    return changes.converted(field, 'max_output_tokens', `raised from ${value} to ${MIN_OUTPUT_TOKENS}, the smallest max_output_tokens the Responses API takes`, true);
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
    else changes.converted('logprobs', 'include', `asked for by include ["${LOGPROBS_INCLUDE}"]; Fireworks' integer logprobs ${logprobs} is top_logprobs ${String(count)}`);
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
      changes.dropped(budgetFrom, `a budget of ${reasoning.budgetTokens} thinking tokens: the Responses API takes a named effort only (reasoning.effort "${reasoning.effort}" is kept)`);
    }
  } else if (reasoning.budgetTokens !== undefined && budgetFrom !== undefined) {
    const effort = effortForBudget(reasoning.budgetTokens);
    target.reasoning = { effort };
    changes.converted(budgetFrom, 'reasoning.effort', `a budget of ${reasoning.budgetTokens} thinking tokens is sent as reasoning.effort "${effort}" (the Responses API takes a named effort, not a budget)`, true);
  }
  if (reasoning.history !== undefined) {
    changes.dropped(origins['reasoning.history'] ?? 'reasoning_history', "how earlier turns' reasoning is kept: a Fireworks extension of chat; the Responses API has none (send reasoning items in input, or leave them out)");
  }
  if (reasoning.budgetEndText !== undefined) changes.dropped('thinking.budget_end_str', 'a Fireworks extension of chat; the Responses API has none');
  if (effortFrom !== 'reasoning_effort' && typeof source.reasoning_effort === 'string' && reasoning.effort !== undefined && source.reasoning_effort !== reasoning.effort) {
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
        return changes.converted(field, 'text.format', "Fireworks' json_object with a schema is a json_schema format (named \"response\": the Responses API needs a name)");
      }
      text.format = { type: 'json_object' };
      return changes.renamed(field, 'text.format', 'the Responses API calls it text.format');
    case 'json_schema': {
      const spec = isRecord(value.json_schema) ? value.json_schema : {};
      const format: Wire = { type: 'json_schema', name: typeof spec.name === 'string' ? spec.name : 'response' };
      for (const key of ['description', 'schema', 'strict']) if (isSet(spec[key])) format[key] = spec[key];
      format.schema ??= {};
      text.format = format;
      return changes.converted(field, 'text.format', 'text.format, with the json_schema object\'s name, schema, description and strict beside type');
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
    if (isRecord(format)) out.format = format.type === 'grammar' && isRecord(format.grammar) ? { type: 'grammar', syntax: format.grammar.syntax, definition: format.grammar.definition } : format;
    return out;
  }
  const fn = isRecord(tool.function) ? tool.function : undefined;
  if (tool.type !== 'function' || !fn) {
    changes.dropped(path, `a tool of type ${String(tool.type)}: the Responses API takes function and custom tools (and its own hosted tools)`);
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
  const nameOf = (entry: Wire) => (isRecord(entry.function) ? entry.function.name : isRecord(entry.custom) ? entry.custom.name : entry.name);
  if (value.type === 'function' || value.type === 'custom') return { type: value.type, name: nameOf(value) };
  if (value.type === 'allowed_tools') {
    const spec = isRecord(value.allowed_tools) ? value.allowed_tools : {};
    const tools = Array.isArray(spec.tools) ? spec.tools.filter(isRecord).map((entry) => ({ type: entry.type ?? 'function', name: nameOf(entry) })) : [];
    return { type: 'allowed_tools', mode: spec.mode, tools };
  }
  return value;
}

const chatToolChoice: Rule = (value, field, { target, changes }) => {
  target.tool_choice = flatToolChoice(value);
  if (value === 'any') changes.converted(field, 'tool_choice', "Fireworks' \"any\" is \"required\"");
  else if (isRecord(value)) changes.converted(field, 'tool_choice', value.type === 'allowed_tools' ? 'mode and tools sit beside type (no allowed_tools wrapper), each tool as {type, name}' : "the tool's name sits beside type (no wrapper)");
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
    changes.converted('stream_options.include_usage', undefined, 'always on: a Responses stream ends with the usage, in response.completed');
  }
};

const chatStreamOptions: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return;
  const kept: Wire = {};
  for (const [key, option] of Object.entries(value)) {
    if (!isSet(option)) continue;
    if (key === 'include_usage') {
      if (option === true) changes.converted(`${field}.include_usage`, undefined, 'always on: a Responses stream ends with the usage, in response.completed');
    } else if (key === 'include_obfuscation') kept[key] = option;
    else if (key === 'include_internal_content') changes.dropped(`${field}.${key}`, 'token ids on each delta: a Fireworks extension of chat; the Responses API has none');
    else changes.dropped(`${field}.${key}`, 'stream buffering: a Fireworks extension of chat; the Responses API has none');
  }
  if (Object.keys(kept).length > 0 && target.stream !== false) target.stream_options = kept;
};

const chatStore: Rule = (value, field, { target, changes }) => {
  target.store = value;
  if (value === true) {
    changes.converted(field, 'store', 'another meaning: chat stores the completion for evals and distillation; the Responses API stores the response so previous_response_id can continue it (its default is true)', true);
  }
};

/** Fireworks' context_length_exceeded_behavior is the Responses API's truncation. */
const chatOverflow: Rule = (value, field, { target, changes }) => {
  if (value !== 'truncate' && value !== 'error') return changes.dropped(field, `unknown value ${JSON.stringify(value)}`);
  target.truncation = value === 'truncate' ? 'auto' : 'disabled';
  changes.converted(field, 'truncation', `truncation "${String(target.truncation)}" (a Fireworks extension of chat; the Responses API has truncation)`);
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
    changes.dropped(field, textOnly ? 'text is what the Responses API answers with' : 'the Responses API answers in text only: no audio output', !textOnly);
  },
  audio: drop('the Responses API answers in text only: no audio output'),
  verbosity: (value, field, { target, changes }) => {
    const text = (target.text ??= {}) as Wire;
    text.verbosity = value;
    changes.renamed(field, 'text.verbosity', 'the Responses API calls it text.verbosity');
  },
  web_search_options: drop('web search is a hosted tool in the Responses API: tools [{"type": "web_search"}] (the proxy runs no hosted tools)'),
  safety_identifier: same,
  prompt_cache_retention: same,
  prompt_cache_options: same,
  moderation: same,
  prompt_truncate_len: fireworks('prompt truncation'),
  safe_tokenization: fireworks('safe_tokenization'),
};

/** Chat content parts -> Responses content parts (`output` for an assistant's earlier answer). */
function chatParts(parts: unknown[], path: string, output: boolean, changes: ChangeList): Wire[] {
  const out: Wire[] = [];
  parts.forEach((part, j) => {
    const at = `${path}[${j}]`;
    if (!isRecord(part)) return;
    switch (part.type) {
      case 'text': {
        const converted: Wire = { type: output ? 'output_text' : 'input_text', text: part.text };
        if (!output && isSet(part.prompt_cache_breakpoint)) converted.prompt_cache_breakpoint = part.prompt_cache_breakpoint;
        out.push(converted);
        changes.converted(at, undefined, `a text part is an ${String(converted.type)} part`);
        return;
      }
      case 'refusal':
        out.push({ type: 'refusal', refusal: part.refusal });
        return;
      case 'image_url': {
        const image = isRecord(part.image_url) ? part.image_url : {};
        const converted: Wire = { type: 'input_image', image_url: image.url };
        if (isSet(image.detail)) converted.detail = image.detail;
        out.push(converted);
        changes.converted(at, undefined, 'an image_url part is an input_image part, its URL as image_url');
        for (const key of Object.keys(image)) if (key !== 'url' && key !== 'detail' && isSet(image[key])) changes.dropped(`${at}.image_url.${key}`, 'a Fireworks extension of chat; the Responses API has none');
        return;
      }
      case 'file': {
        const file = isRecord(part.file) ? part.file : {};
        out.push({ type: 'input_file', ...Object.fromEntries(['file_data', 'filename', 'file_id'].filter((key) => isSet(file[key])).map((key) => [key, file[key]])) });
        changes.converted(at, undefined, 'a file part is an input_file part, file_data, filename and file_id beside its type');
        return;
      }
      case 'input_audio':
        changes.dropped(at, 'the Responses API takes no audio input');
        return;
      case 'video_url':
        changes.dropped(at, 'video input: a Fireworks extension of chat; the Responses API has none');
        return;
      default:
        changes.dropped(at, `a ${String(part.type)} part: the Responses API has none`);
    }
  });
  return out;
}

/** A chat tool call -> a `function_call` (or `custom_tool_call`) item. */
function callItem(call: Wire, id: string): Wire {
  if (call.type === 'custom' && isRecord(call.custom)) return { type: 'custom_tool_call', call_id: id, name: call.custom.name, input: call.custom.input };
  let fn: unknown = call.function;
  if (typeof fn === 'string') {
    try {
      fn = JSON.parse(fn);
    } catch {
      fn = {};
    }
  }
  const spec = isRecord(fn) ? fn : {};
  return { type: 'function_call', call_id: id, name: spec.name, arguments: spec.arguments };
}

/** Message keys with a place in the Responses API (or handled below). */
const MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'function_call', 'reasoning_content', 'refusal']);

/** `messages` -> `instructions` (a leading system message) and `input` items. */
function chatMessages(value: unknown, field: string, { target, changes }: Context): void {
  if (!Array.isArray(value)) return changes.dropped(field, 'not an array');
  changes.converted(field, 'input', "each message an input item; text parts as input_text (an assistant's as output_text)");
  const input: Wire[] = [];
  /** Call ids of custom tools: their outputs are custom_tool_call_output items. */
  const customCalls = new Set<string>();
  /** Legacy function messages answer the latest function_call of the same name. */
  const functionCallIds = new Map<string, string>();
  const item = (wire: Wire) => input.push(wire) - 1;
  let previousRole: unknown;

  value.forEach((message, i) => {
    const path = `${field}[${i}]`;
    if (!isRecord(message)) return;
    const { role } = message;
    for (const key of Object.keys(message)) {
      if (MESSAGE_KEYS.has(key) || !isSet(message[key])) continue;
      changes.dropped(`${path}.${key}`, key === 'audio' ? "the assistant's earlier audio answer: the Responses API takes no audio" : `the Responses API's messages have no ${key}`);
    }
    if (isSet(message.name) && role !== 'function') changes.dropped(`${path}.name`, "the Responses API's messages have no participant name");

    if (i === 0 && role === 'system' && typeof message.content === 'string') {
      target.instructions = message.content;
      changes.converted(path, 'instructions', 'the leading system message is the instructions');
    } else if (role === 'system' || role === 'developer' || role === 'user') {
      const content = Array.isArray(message.content) ? chatParts(message.content, `${path}.content`, false, changes) : message.content ?? '';
      item({ role, content });
    } else if (role === 'assistant') {
      assistantItems(message, path, i);
    } else if (role === 'tool' || role === 'function') {
      const id = role === 'tool' ? String(message.tool_call_id) : functionCallIds.get(String(message.name)) ?? `call_${i}`;
      const output = Array.isArray(message.content) ? chatParts(message.content, `${path}.content`, false, changes) : message.content ?? '';
      const at = item({ type: customCalls.has(id) ? 'custom_tool_call_output' : 'function_call_output', call_id: id, output });
      changes.converted(path, `input[${at}]`, role === 'tool' ? "a tool message is a function_call_output item (a custom tool's: custom_tool_call_output), tool_call_id as call_id" : 'a legacy function message is a function_call_output item, paired with its call by call_id');
    }
    previousRole = role;
  });

  function assistantItems(message: Wire, path: string, i: number): void {
    const calls: Wire[] = [];
    if (Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call, k) => {
        if (!isRecord(call)) return;
        const id = typeof call.id === 'string' ? call.id : `call_${i}_${k}`;
        if (call.type === 'custom') customCalls.add(id);
        calls.push(callItem(call, id));
      });
    }
    if (isRecord(message.function_call)) {
      const id = `call_${i}`;
      functionCallIds.set(String(message.function_call.name), id);
      calls.push({ type: 'function_call', call_id: id, name: message.function_call.name, arguments: message.function_call.arguments });
    }
    const reasoning = typeof message.reasoning_content === 'string' && message.reasoning_content !== '' ? message.reasoning_content : undefined;
    if (reasoning !== undefined) {
      const at = item({ type: 'reasoning', id: `rs_${i}`, summary: [{ type: 'summary_text', text: reasoning }] });
      changes.converted(`${path}.reasoning_content`, `input[${at}]`, "a reasoning item before the assistant's turn, its text in summary (as the proxy answers; OpenAI itself takes back only the reasoning items it made)");
    }
    let content: unknown = message.content;
    if (Array.isArray(content)) content = chatParts(content, `${path}.content`, true, changes);
    if (typeof message.refusal === 'string') {
      content = [...(Array.isArray(content) ? content : typeof content === 'string' && content !== '' ? [{ type: 'output_text', text: content }] : []), { type: 'refusal', refusal: message.refusal }];
      changes.converted(`${path}.refusal`, undefined, 'a refusal part of the assistant message');
    }
    if (isSet(content) || calls.length === 0) item({ role: 'assistant', content: content ?? '' });
    else if (previousRole === 'assistant' && reasoning === undefined) {
      changes.converted(path, undefined, 'its tool calls join the assistant turn before it: in the Responses API, calls after an assistant message belong to that turn', true);
    }
    if (calls.length > 0) {
      const at = calls.map(item)[0];
      const name = Array.isArray(message.tool_calls) ? 'tool_calls' : 'function_call';
      changes.converted(`${path}.${name}`, `input[${at}]`, "each call is a function_call item after the assistant's message (a custom tool's: custom_tool_call), its id as call_id");
    }
  }

  target.input = input;
}

// ------------------------------------------------------------------------------------------
// Responses -> Chat Completions
// ------------------------------------------------------------------------------------------

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
    else if (value === 'reasoning.encrypted_content') changes.dropped(at, 'chat has no encrypted reasoning: the reasoning comes back as text (reasoning_content) where the backend gives it');
    else changes.dropped(at, `names an output of a hosted tool or an input image URL: chat has no place for ${String(value)}`, false);
  });
  if (typeof top === 'number' && !include.includes(LOGPROBS_INCLUDE)) changes.converted('top_logprobs', 'logprobs', 'chat needs logprobs: true beside top_logprobs');
});

/** `text.format` -> `response_format`; `text.verbosity` -> `verbosity`. */
const responsesText: Rule = (value, field, { target, changes }) => {
  if (!isRecord(value)) return;
  const { format, verbosity } = value;
  if (isRecord(format)) {
    if (format.type === 'json_schema') {
      const { type, ...spec } = format;
      target.response_format = { type, json_schema: spec };
      changes.converted(`${field}.format`, 'response_format', "response_format, with the format's name, schema, description and strict under json_schema");
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
      changes.dropped(`${field}.${key}`, 'chat has no reasoning summaries: the reasoning comes back whole, as reasoning_content, where the backend gives it');
    } else changes.dropped(`${field}.${key}`, 'chat has no counterpart');
  }
};

/** A Responses tool (`{type: 'function', name, ...}`) -> a chat tool (`{type: 'function', function: {...}}`). */
function nestedTool(tool: unknown, path: string, changes: ChangeList): Wire | undefined {
  if (!isRecord(tool)) return undefined;
  if (tool.type === 'function') {
    const fn: Wire = { name: tool.name };
    for (const key of ['description', 'parameters', 'strict']) if (isSet(tool[key])) fn[key] = tool[key];
    for (const key of ['output_schema', 'defer_loading', 'allowed_callers']) if (isSet(tool[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart');
    return { type: 'function', function: fn };
  }
  if (tool.type === 'custom') {
    const custom: Wire = { name: tool.name };
    if (isSet(tool.description)) custom.description = tool.description;
    const { format } = tool;
    if (isRecord(format)) custom.format = format.type === 'grammar' ? { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } } : format;
    for (const key of ['defer_loading', 'allowed_callers']) if (isSet(tool[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart');
    return { type: 'custom', custom };
  }
  changes.dropped(path, `${String(tool.type)} is a hosted tool, which runs at OpenAI: chat has no hosted tools (declare your own function tool)`);
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
  target.stream_options = { include_usage: true, ...(isSet(options.include_obfuscation) ? { include_obfuscation: options.include_obfuscation } : {}) };
  changes.converted(field, 'stream_options.include_usage', 'a Responses stream always ends with the usage; chat sends it when stream_options.include_usage is true');
};

const responsesTruncation: Rule = (value, field, { target, changes }) => {
  if (value !== 'auto' && value !== 'disabled') return;
  target.context_length_exceeded_behavior = value === 'auto' ? 'truncate' : 'error';
  changes.converted(field, 'context_length_exceeded_behavior', `context_length_exceeded_behavior "${String(target.context_length_exceeded_behavior)}": Fireworks' chat field (OpenAI's chat API has none, and fails a prompt that does not fit)`);
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
    if (source.stream !== true && isRecord(value) && Object.keys(value).length > 0) changes.dropped(field, 'without stream it asks for nothing', false);
  },
  store: (value, field, { target, changes }) => {
    target.store = value;
    if (value === true) changes.converted(field, 'store', 'another meaning: the Responses API stores the response so previous_response_id can continue it; chat stores the completion for evals and distillation', true);
  },
  background: drop(`background runs need stored responses; ${STATEFUL}`),
  previous_response_id: drop(STATEFUL),
  conversation: drop(`conversations are stored by OpenAI; ${STATEFUL}`),
  prompt: drop('prompt templates are stored by OpenAI: send their text in messages'),
  context_management: drop('server-side compaction: chat sends the whole conversation'),
  moderation: same,
};

/** Responses content parts -> chat content parts. */
function responsesParts(parts: unknown[], path: string, changes: ChangeList): Wire[] {
  const out: Wire[] = [];
  parts.forEach((part, j) => {
    const at = `${path}[${j}]`;
    if (!isRecord(part)) return;
    switch (part.type) {
      case 'input_text':
      case 'output_text': {
        const text: Wire = { type: 'text', text: part.text };
        if (isSet(part.prompt_cache_breakpoint)) text.prompt_cache_breakpoint = part.prompt_cache_breakpoint;
        out.push(text);
        changes.converted(at, undefined, `an ${part.type} part is a text part`);
        if (Array.isArray(part.annotations) && part.annotations.length > 0) changes.dropped(`${at}.annotations`, "citations of an earlier answer: chat's messages have no place for them", false);
        if (isSet(part.logprobs)) changes.dropped(`${at}.logprobs`, "an earlier answer's logprobs: chat's messages have no place for them", false);
        return;
      }
      case 'refusal':
        out.push({ type: 'refusal', refusal: part.refusal });
        return;
      case 'input_image': {
        if (isSet(part.file_id)) {
          changes.dropped(at, "an image by file id (stored by OpenAI): chat's image_url takes a URL or a data URL");
          return;
        }
        const image: Wire = { url: part.image_url };
        if (isSet(part.detail)) {
          image.detail = part.detail === 'original' ? 'high' : part.detail;
          if (part.detail === 'original') changes.converted(`${at}.detail`, `${at}.image_url.detail`, 'chat has no "original" detail: sent as "high"', true);
        }
        out.push({ type: 'image_url', image_url: image });
        changes.converted(at, undefined, 'an input_image part is an image_url part, its URL under image_url.url');
        return;
      }
      case 'input_file': {
        if (isSet(part.file_url)) {
          changes.dropped(at, 'a file by URL: chat takes file_data (base64) or a file id');
          return;
        }
        out.push({ type: 'file', file: Object.fromEntries(['file_data', 'filename', 'file_id'].filter((key) => isSet(part[key])).map((key) => [key, part[key]])) });
        changes.converted(at, undefined, 'an input_file part is a file part, file_data, filename and file_id under file');
        if (isSet(part.detail)) changes.dropped(`${at}.detail`, 'chat has no detail for files');
        return;
      }
      default:
        changes.dropped(at, `a ${String(part.type)} part: chat has none`);
    }
  });
  return out;
}

/** A function_call_output's output -> a tool message's content: text, or parts. */
function outputContent(output: unknown, path: string, changes: ChangeList): unknown {
  return Array.isArray(output) ? responsesParts(output, path, changes) : output;
}

/** Item keys that are bookkeeping of OpenAI's stored items. */
const BOOKKEEPING = new Set(['id', 'status', 'phase', 'caller']);

/** `instructions` + `input` -> `messages`, grouped as the Responses dialect reads them (src/dialects/openai-responses/parse-input.ts). */
function responsesConversation({ source, target, changes }: Context): void {
  const messages: Wire[] = [];
  if (typeof source.instructions === 'string') {
    messages.push({ role: 'system', content: source.instructions });
    changes.converted('instructions', 'messages[0]', 'the instructions are the first message, a system message');
  }
  const { input } = source;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    changes.converted('input', 'messages', 'a text input is one user message');
  } else if (Array.isArray(input)) {
    changes.converted('input', 'messages', 'each message item a message; input_text and output_text parts as text');
    readItems(input, messages, changes);
  }
  target.messages = messages;
}

function readItems(items: unknown[], messages: Wire[], changes: ChangeList): void {
  /** Reasoning text waiting for the assistant turn after it, and the items it came from. */
  let reasoning: { text: string; path: string; from: string[] } | undefined;
  /** Called before the message is pushed: it will be the last one. */
  const takeReasoning = (message: Wire) => {
    if (reasoning && reasoning.text !== '') {
      message.reasoning_content = reasoning.text;
      for (const path of reasoning.from) changes.converted(path, `messages[${messages.length}].reasoning_content`, "a reasoning item is the reasoning_content of the assistant's message after it");
    }
    reasoning = undefined;
  };

  items.forEach((item, i) => {
    const path = `input[${i}]`;
    if (!isRecord(item)) return;
    const type = item.type ?? 'message';
    for (const key of BOOKKEEPING) {
      if (isSet(item[key])) changes.dropped(`${path}.${key}`, "bookkeeping of OpenAI's stored items: chat has no place for it", false);
    }
    switch (type) {
      case 'message': {
        const role = item.role;
        const content = Array.isArray(item.content) ? responsesParts(item.content, `${path}.content`, changes) : item.content;
        const message: Wire = { role, content };
        if (role === 'assistant') takeReasoning(message);
        messages.push(message);
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const call = type === 'function_call'
          ? { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }
          : { id: item.call_id, type: 'custom', custom: { name: item.name, input: item.input } };
        if (isSet(item.namespace)) changes.dropped(`${path}.namespace`, 'chat has no tool namespaces');
        const last = messages[messages.length - 1];
        if (last?.role === 'assistant' && !reasoning) {
          ((last.tool_calls ??= []) as Wire[]).push(call);
        } else {
          const message: Wire = { role: 'assistant', content: null, tool_calls: [call] };
          takeReasoning(message);
          messages.push(message);
        }
        changes.converted(path, `messages[${messages.length - 1}].tool_calls`, `a ${String(type)} item is a tool call of the assistant's message (call_id as id)`);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputContent(item.output, `${path}.output`, changes) });
        changes.converted(path, `messages[${messages.length - 1}]`, `a ${String(type)} item is a tool message (call_id as tool_call_id)`);
        for (const key of ['name', 'namespace']) if (isSet(item[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart', false);
        return;
      case 'reasoning': {
        const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
        const texts = parts.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).filter((text) => text !== '');
        if (isSet(item.encrypted_content)) changes.dropped(`${path}.encrypted_content`, "OpenAI's encrypted reasoning: chat cannot carry it (reasoning_content is text)");
        reasoning = { text: [reasoning?.text, ...texts].filter((text) => text !== undefined && text !== '').join('\n\n'), path, from: [...(reasoning?.from ?? []), ...(texts.length > 0 ? [path] : [])] };
        return;
      }
      case 'item_reference':
        changes.dropped(path, 'names an item stored by OpenAI: send the item itself');
        return;
      default:
        changes.dropped(path, `a ${String(type)} item belongs to a hosted tool, which runs at OpenAI: chat has none`);
    }
  });
  if (reasoning && reasoning.text !== '') changes.dropped(reasoning.path, 'reasoning with no assistant turn after it: chat has no place for it');
}
