/**
 * Every top-level field of `POST /v1/responses` (OpenAI's newest spec,
 * `CreateResponse`) with its fate. The Responses shapes of tools, tool choice
 * and text format are rewritten to their chat shapes and read by the chat
 * dialect's parsers, so both dialects mean the same by them. Stateful fields
 * (`previous_response_id`, `background`) are resolved by the pipeline when a
 * response store is configured (src/dialects/openai-responses/state/response-state.ts), which takes
 * them out of the body; a body that still has them is refused here.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { normalizeEffort } from '../../model/reasoning.js';
import { copyTo, mapWith, reject, relay, setPath, type FieldContext, type FieldRule, type FieldTable } from '../field-table.js';
import { parseResponseFormat } from '../parse-response-format.js';
import { isSet } from '../../model/is-set.js';
import { affinityKey, type CrossFieldRule } from '../cross-field-rules.js';
import { parseToolChoice, parseTools } from '../openai-chat/parse-tools.js';
import { parseInput } from './parse-input.js';
import { ENCRYPTED_REASONING } from './sealed-items.js';
import { chatToolChoice, chatTools, offersOnlyBuiltIns } from './chat-tools.js';
import { ToolNames } from './tool-names.js';
import { pushAll } from '../../model/push-all.js';

export type ResponsesField =
  | 'model'
  | 'input'
  | 'instructions'
  | 'max_output_tokens'
  | 'temperature'
  | 'top_p'
  | 'top_logprobs'
  | 'include'
  | 'tools'
  | 'tool_choice'
  | 'parallel_tool_calls'
  | 'max_tool_calls'
  | 'text'
  | 'reasoning'
  | 'metadata'
  | 'user'
  | 'safety_identifier'
  | 'prompt_cache_key'
  | 'prompt_cache_retention'
  | 'prompt_cache_options'
  | 'service_tier'
  | 'truncation'
  | 'stream'
  | 'stream_options'
  | 'store'
  | 'background'
  | 'previous_response_id'
  | 'conversation'
  | 'prompt'
  | 'context_management'
  | 'moderation'
  | 'client_metadata';

/** The include values that ask for output the proxy can give; the others name items of hosted tools, which never occur here. */
const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

/** `instructions` and `input` become one message list: the instructions are its system turn. */
function applyConversation(_value: unknown, { request, body, dialect }: FieldContext): void {
  if (request.messages) return;
  const { messages, warnings } = isSet(body.input)
    ? parseInput(body.input, 'input', ToolNames.of(body.tools), dialect?.sealer)
    : { messages: [], warnings: [] };
  if (isSet(body.instructions)) {
    if (typeof body.instructions !== 'string') throw invalidRequest('instructions', 'instructions must be a string.');
    messages.unshift({ role: 'system', content: body.instructions });
  }
  setPath(request, 'messages', messages, isSet(body.input) ? 'input' : 'instructions');
  pushAll(request.warnings, warnings);
}

/** Logprobs are asked for by `include: ['message.output_text.logprobs']` or by `top_logprobs`. */
function applyLogprobs(_value: unknown, { request, body }: FieldContext): void {
  if (request.logprobs) return;
  const included = Array.isArray(body.include) && body.include.includes(LOGPROBS_INCLUDE);
  const top = typeof body.top_logprobs === 'number' ? body.top_logprobs : undefined;
  if (!included && top === undefined) return;
  setPath(request, 'logprobs', { top: top ?? 0, shape: 'chat' }, included ? 'include' : 'top_logprobs');
  if (top !== undefined) request.origins['logprobs.top'] = 'top_logprobs';
}

const include = mapWith(
  `${LOGPROBS_INCLUDE} -> logprobs; ${ENCRYPTED_REASONING}: emulated: reasoning items carry the reasoning and the backend's signature in encrypted_content, sealed by the proxy (responses.encryptionKey) and opened when they come back; message.input_image.image_url: input items keep their image URLs anyway; the others name items of hosted tools, which never occur`,
  (value, context) => {
    if (!Array.isArray(value)) throw invalidRequest('include', 'include must be an array.');
    applyLogprobs(value, context);
  },
);

const tools = mapWith(
  "tools (function and custom tools; a namespace's tools flattened to `<namespace>__<name>`; offered built-in tools dropped with a warning)",
  (value, { request, field, body }) => {
    // Forcing "a tool" when every tool offered is a built-in one forces a built-in tool.
    if (body.tool_choice === 'required' && offersOnlyBuiltIns(value))
      throw unsupportedParameter(
        'tool_choice',
        "tool_choice 'required' forces a tool call, and every tool offered is a built-in tool no backend here runs: declare your own function tools.",
      );
    const names = ToolNames.of(value);
    setPath(request, 'tools', parseTools(chatTools(value, names, request.warnings), chatToolChoice(body.tool_choice, names), field), field);
  },
);

const toolChoice = mapWith(
  'toolChoice (a named function or custom tool; allowed_tools narrows the tools; forcing a built-in tool is a 400 naming it)',
  (value, { request, field, body }) => {
    const names = ToolNames.of(body.tools);
    const choice = parseToolChoice(chatToolChoice(value, names), field);
    if ((choice === 'auto' || choice === 'none') && offersOnlyBuiltIns(body.tools)) return;
    if (typeof choice === 'object') {
      const declared = Array.isArray(body.tools) ? body.tools.map((tool) => (isRecord(tool) ? tool.name : undefined)) : [];
      if (!declared.includes(choice.name) && names.restore(choice.name).namespace === undefined)
        throw invalidRequest(field, `tool_choice names '${choice.name}', which is not among the declared tools.`);
    }
    setPath(request, 'toolChoice', choice, field);
  },
);

const TEXT_KEYS = new Set(['format', 'verbosity']);

/** `text.format` is the response format (its json_schema fields sit beside `type`); `text.verbosity` is relayed as chat's `verbosity`. */
const text = mapWith(
  'text.format -> responseFormat (text | json_object | json_schema); text.verbosity relayed as verbosity',
  (value, { request }) => {
    if (!isRecord(value)) throw invalidRequest('text', 'text must be an object.');
    for (const key of Object.keys(value))
      if (!TEXT_KEYS.has(key) && isSet(value[key])) throw invalidRequest(`text.${key}`, `Unrecognized text field: ${key}.`);
    if (isRecord(value.format)) {
      const { type, ...wrapper } = value.format;
      const chatShape = type === 'json_schema' ? { type, json_schema: wrapper } : value.format;
      setPath(request, 'responseFormat', parseResponseFormat(chatShape, 'text.format'), 'text.format');
    }
    if (isSet(value.verbosity)) {
      request.passthrough.verbosity = value.verbosity;
      request.origins['passthrough.verbosity'] = 'text.verbosity';
    }
  },
);

const REASONING_KEYS = new Set(['effort', 'summary', 'generate_summary', 'context', 'mode']);

/** `reasoning.context`: which earlier reasoning the model sees again (auto leaves it to the backend). */
const HISTORY: Readonly<Record<string, 'interleaved' | 'preserved'>> = { current_turn: 'interleaved', all_turns: 'preserved' };

const reasoning = mapWith(
  "reasoning.effort -> the backend's effort ladder (offered: a backend with none goes without, in a warning); context -> reasoning.history (current_turn = interleaved, all_turns = preserved); summary: the backend's reasoning text is the summary, whole; mode other than standard: a 400",
  (value, { request }) => {
    if (!isRecord(value)) throw invalidRequest('reasoning', 'reasoning must be an object.');
    for (const key of Object.keys(value))
      if (!REASONING_KEYS.has(key) && isSet(value[key])) throw invalidRequest(`reasoning.${key}`, `Unrecognized reasoning field: ${key}.`);
    if (isSet(value.mode) && value.mode !== 'standard') {
      throw unsupportedParameter(
        'reasoning.mode',
        `reasoning.mode '${String(value.mode)}' is not supported by this proxy: the backends behind it have one reasoning mode, standard.`,
      );
    }
    if (isSet(value.effort)) {
      // What the model may do, not what the answer must hold: a backend with no place for it goes without (plan-reasoning.ts).
      request.reasoning = { ...request.reasoning, ...normalizeEffort(value.effort, 'reasoning.effort'), offered: true };
      request.origins['reasoning.effort'] = 'reasoning.effort';
    }
    const history = typeof value.context === 'string' ? HISTORY[value.context] : undefined;
    if (history) setPath(request, 'reasoning.history', history, 'reasoning.context');
  },
);

/** OpenAI's default, 'disabled', fails a prompt that does not fit; 'auto' lets the backend truncate it. */
const truncation = mapWith("limits.onContextOverflow: 'disabled' -> error, 'auto' -> truncate", (value, { request, field }) => {
  if (value !== 'auto' && value !== 'disabled') throw invalidRequest(field, "truncation must be 'auto' or 'disabled'.");
  setPath(request, 'limits.onContextOverflow', value === 'disabled' ? 'error' : 'truncate', field);
});

const maxOutputTokens = mapWith('limits.maxTokens', (value, { request, field }) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalidRequest(field, `${field} must be a positive integer (got ${String(value)}).`);
  setPath(request, 'limits.maxTokens', value, field);
});

const STREAM_OPTION_KEYS = new Set(['include_obfuscation']);

/** A Responses stream always ends with the usage, in `response.completed`. */
function applyStream(_value: unknown, { request, body }: FieldContext): void {
  if (body.stream !== true || request.stream) return;
  request.stream = { includeUsage: true, tokenIds: false };
  request.origins.stream = 'stream';
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  for (const key of Object.keys(options))
    if (!STREAM_OPTION_KEYS.has(key) && isSet(options[key]))
      throw invalidRequest(`stream_options.${key}`, `Unrecognized stream_options field: ${key}.`);
  if (options.include_obfuscation === true)
    request.warnings.push('stream_options.include_obfuscation: the proxy does not add obfuscation padding.');
}

/** Kept by the proxy for the answer: the Response object repeats it. */
const echoed = (note: string): FieldRule => mapWith(`${note}; repeated in the Response object`, () => undefined);

const STATE = 'needs a response store, and none is configured: the proxy is stateless by default (see responses.store in the README)';

export const responsesFields: FieldTable<ResponsesField> = {
  model: copyTo('model'),
  input: mapWith('messages (message, function_call, function_call_output, custom tool and reasoning items)', applyConversation),
  instructions: mapWith('messages: the system turn, first', applyConversation),
  max_output_tokens: maxOutputTokens,
  temperature: copyTo('sampling.temperature'),
  top_p: copyTo('sampling.topP'),
  top_logprobs: mapWith('logprobs.top (with include message.output_text.logprobs, or alone)', applyLogprobs),
  include,
  tools,
  tool_choice: toolChoice,
  parallel_tool_calls: mapWith(
    'parallelToolCalls (not sent when every tool offered is a built-in one, dropped: nothing to choose from)',
    (value, { request, field, body }) => {
      if (!offersOnlyBuiltIns(body.tools)) setPath(request, 'parallelToolCalls', value, field);
    },
  ),
  max_tool_calls: echoed('limits calls of hosted tools, which the proxy does not offer: nothing to limit'),
  text,
  reasoning,
  metadata: echoed('kept by the proxy (and in the response store), not sent upstream'),
  user: copyTo('user'),
  safety_identifier: relay(),
  prompt_cache_key: copyTo('promptCacheKey'),
  prompt_cache_retention: relay(),
  prompt_cache_options: relay(),
  service_tier: copyTo('serviceTier'),
  truncation,
  stream: mapWith('stream (usage always included, in response.completed)', applyStream),
  stream_options: mapWith('stream_options.include_obfuscation: a warning (no padding is added)', applyStream),
  store: mapWith(
    'kept in the response store when one is configured (default false here); with none, true is a warning; repeated in the Response object',
    (value, { request }) => {
      // The pipeline decides whether it keeps the answer (response-state.ts); alone, the dialect keeps nothing.
      if (value === true)
        request.warnings.push('store: no response store is configured, so this response is not kept (responses.store in the README)');
    },
  ),
  // false asks for nothing; true is run by the pipeline when a store is configured, which takes the field out.
  background: mapWith(`true ${STATE}`, (value, { field }) => {
    if (value === true) throw unsupportedParameter(field, `background is not supported: it ${STATE}.`);
  }),
  previous_response_id: mapWith(`read from the response store by the pipeline; without one, a 400: it ${STATE}`, (_value, { field }) => {
    throw unsupportedParameter(field, `previous_response_id is not supported: it ${STATE}; or send the earlier turns in input.`);
  }),
  conversation: reject(
    'conversations are stored by OpenAI: send the earlier turns in input (or previous_response_id with a response store)',
  ),
  prompt: reject('prompt templates are stored by OpenAI: send instructions and input instead'),
  context_management: reject('server-side compaction is not offered: the backend sees the whole input'),
  moderation: relay(),
  // Not in OpenAI's spec: Codex CLI sends it on every request (its installation, session and turn ids).
  client_metadata: mapWith(
    "a client's own metadata: changes nothing in the answer, and no backend has a field for it: not sent, with a warning",
    (_value, { request, field }) => {
      request.warnings.push(`${field} not sent: no backend behind the proxy has a field for a client's metadata`);
    },
  ),
};

/** Which parameters the Response object repeats. */
export const ECHOED_PARAMS = [
  'instructions',
  'max_output_tokens',
  'max_tool_calls',
  'metadata',
  'parallel_tool_calls',
  'previous_response_id',
  'prompt_cache_key',
  'reasoning',
  'safety_identifier',
  'service_tier',
  'temperature',
  'text',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'truncation',
  'user',
  'background',
  // Not in the Response object: what its reasoning items carry (sealed-items.ts).
  'include',
] as const;

export const responsesCrossFieldRules: readonly CrossFieldRule[] = [
  {
    fields: ['stream_options', 'stream'],
    note: 'stream_options is only allowed when stream is true',
    apply: ({ body }) => {
      if (isSet(body.stream_options) && body.stream !== true)
        throw invalidRequest('stream_options', 'stream_options is only allowed when stream is true.');
    },
  },
  affinityKey,
];
