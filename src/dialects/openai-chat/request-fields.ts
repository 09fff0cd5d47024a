/**
 * Every top-level field of `POST /v1/chat/completions` with its fate: OpenAI
 * 2.3.0, OpenAI's newer fields, and Fireworks' chat extensions. A field missing
 * here does not compile; an unknown key is a 400 (field-table.ts). OpenAI-only
 * fields with no neutral meaning are relayed for a backend that takes them
 * verbatim; the plan rejects them for any other.
 */
import { invalidRequest } from '../../errors/proxy-error.js';
import { commonFields, streamFields, type CommonField } from '../common-fields.js';
import { copyTo, mapWith, reject, relay, setPath, type FieldTable } from '../field-table.js';
import { isSet } from '../../model/is-set.js';
import { commonCrossFieldRules, exclusive, requires, type CrossFieldRule } from '../cross-field-rules.js';
import { parseMessages } from './parse-messages.js';
import { allowedToolNames, declaredNames, parseFunctionCall, parseFunctions, parseToolChoice, parseTools } from './parse-tools.js';

export type ChatField =
  | CommonField
  | 'messages'
  | 'stream'
  | 'stream_options'
  | 'store'
  | 'tools'
  | 'tool_choice'
  | 'parallel_tool_calls'
  | 'functions'
  | 'function_call'
  // OpenAI fields with no neutral meaning
  | 'modalities'
  | 'audio'
  | 'verbosity'
  | 'web_search_options'
  | 'safety_identifier'
  | 'prompt_cache_retention'
  | 'prompt_cache_options'
  | 'moderation'
  // Fireworks chat extensions beyond the common ones
  | 'prompt_truncate_len'
  | 'safe_tokenization';

/** Said by both audio-output fields: any voice or format the spec allows gets this, never an enum error. */
const AUDIO_OUTPUT = 'audio output is not supported by this backend (the proxy answers in text only)';

export const chatFields: FieldTable<ChatField> = {
  ...commonFields,
  ...streamFields({ includeUsage: false }),
  // A chat answer has no place for prompt text; the completions endpoint echoes.
  echo: reject('echoing the prompt is a completions feature: use POST /v1/completions'),
  echo_last: reject('echoing the prompt is a completions feature: use POST /v1/completions'),
  messages: mapWith('messages', (value, { request, field }) => setPath(request, 'messages', parseMessages(value, field), field)),
  store: copyTo('store'),
  tools: mapWith('tools (function and custom tools; allowed_tools narrows them)', (value, { request, field, body }) => {
    setPath(request, 'tools', parseTools(value, body.tool_choice, field), field);
  }),
  tool_choice: mapWith("toolChoice ('any' = 'required')", (value, { request, field }) =>
    setPath(request, 'toolChoice', parseToolChoice(value, field), field),
  ),
  parallel_tool_calls: copyTo('parallelToolCalls'),
  functions: mapWith('tools + legacyFunctions (answers use function_call)', (value, { request, field }) => {
    setPath(request, 'tools', parseFunctions(value, field), field);
    setPath(request, 'legacyFunctions', true, field);
  }),
  function_call: mapWith('toolChoice (legacy)', (value, { request, field }) =>
    setPath(request, 'toolChoice', parseFunctionCall(value, field), field),
  ),
  // ['text'] is what every backend produces. Audio output has no place in the
  // neutral result yet, so asking for it is refused rather than lost.
  modalities: mapWith("honoured when ['text']; audio output is a 400", (value, { field }) => {
    if (Array.isArray(value) && value.every((modality) => modality === 'text')) return;
    throw invalidRequest(field, `${AUDIO_OUTPUT}: use modalities ["text"].`, 'unsupported_parameter');
  }),
  audio: reject(`${AUDIO_OUTPUT}; leave out audio and use modalities ["text"]`),
  verbosity: relay(),
  web_search_options: relay('web search: relayed to backends that search; elsewhere not sent, with a warning (offered, not forced)', {
    offered: true,
  }),
  safety_identifier: relay(),
  prompt_cache_retention: relay(),
  prompt_cache_options: relay(),
  moderation: relay(),
  prompt_truncate_len: relay('Fireworks prompt truncation: relayed to backends that take it'),
  safe_tokenization: relay(),
};

/** The named choice must name a declared tool (or function). */
const namedChoiceDeclared = (field: 'tool_choice' | 'function_call'): CrossFieldRule => ({
  fields: [field, field === 'tool_choice' ? 'tools' : 'functions'],
  note: `${field} must name a declared function`,
  apply: ({ body }) => {
    const choice = body[field];
    if (!isSet(choice) || typeof choice === 'string') return;
    const declared = declaredNames(body) ?? [];
    const named = field === 'tool_choice' ? (allowedToolNames(choice) ?? [namedTool(choice)]) : [namedTool(choice)];
    const missing = named.find((name) => name !== undefined && !declared.includes(name));
    if (missing !== undefined)
      throw invalidRequest(
        field,
        `${field} names '${missing}', which is not among the declared ${field === 'tool_choice' ? 'tools' : 'functions'}.`,
      );
  },
});

function namedTool(choice: unknown): string | undefined {
  const wire = choice as Record<string, unknown>;
  const fn = (wire.function ?? wire.custom) as Record<string, unknown> | undefined;
  const name = fn?.name ?? wire.name;
  return typeof name === 'string' ? name : undefined;
}

/** Chat's cross-field rules: the shared ones, then tools versus legacy functions. */
export const chatCrossFieldRules: readonly CrossFieldRule[] = [
  ...commonCrossFieldRules,
  exclusive('tools', 'functions'),
  exclusive('tool_choice', 'function_call'),
  requires('function_call', (body) => isSet(body.functions), 'function_call requires functions.'),
  requires(
    'tool_choice',
    (body) => (body.tool_choice !== 'required' && body.tool_choice !== 'any') || isSet(body.tools),
    "tool_choice 'required' requires tools.",
  ),
  namedChoiceDeclared('tool_choice'),
  namedChoiceDeclared('function_call'),
];
