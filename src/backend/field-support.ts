/**
 * What one backend kind does with every neutral request field: the one table
 * per kind from which its capabilities, the plan's refusals and warnings, the
 * last guard before the wire, the plain wire copies and the fate table all
 * derive. The table type lists every neutral field, so a kind that forgets one
 * does not compile.
 *
 * @example
 * const fields: FieldSupport = {
 *   'sampling.topK': copy('top_k'),
 *   'sampling.mirostat': unsupported('no Mirostat sampler'),
 *   'limits.maxTokens': byEndpoint({ chat: copy('max_completion_tokens'), text: copy('max_tokens') }),
 *   ...
 * };
 */
import type { NeutralField } from '../model/neutral-fields.js';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import type { ConversationWire } from '../model/wire-form.js';

export type WireBody = Record<string, unknown>;

/** Writes a field (or a group of fields that share one converter) onto the wire body; throws a ProxyError for a value the backend cannot take. */
export type WriteField = (body: WireBody, request: NeutralRequest) => void;

/**
 * The values a backend takes for a field with a closed set of them (`service_tier`): any
 * other is mapped to its stand-in with a warning, or refused by the plan naming the caller's field.
 */
export interface FieldValues {
  accepted: readonly string[];
  /** Values the backend takes under another name, e.g. OpenAI's `fast` is its `priority`. */
  mapped?: Readonly<Record<string, string>>;
}

export type FieldHandling =
  /** Sent under this wire name, value unchanged (with `values`: only those, checked by the plan). */
  | { kind: 'copy'; wire: string; values?: FieldValues }
  /** Sent through a converter. Fields that share one converter object run it once. `wire`: the field it writes, when its note starts with one. */
  | { kind: 'convert'; note: string; write: WriteField; wire?: string }
  /** Taken as it is: the body builder's fixed part carries it (the prompt), or it is the backend's own behaviour. */
  | { kind: 'native'; note: string }
  /** The proxy does it (fan-out, its own timings); nothing is sent. */
  | { kind: 'emulate'; how: string }
  /** A 400 naming the caller's field (or, with `dropUnsupported`, a drop and a warning). */
  | { kind: 'unsupported'; why: string };

export type PerEndpoint<T> = { readonly chat: T; readonly text: T };

export type FieldSupport = Readonly<Record<NeutralField, FieldHandling | PerEndpoint<FieldHandling>>>;

/** A backend kind's table: its field support, what it relays verbatim, and how its 400s name it. */
export interface BackendTable {
  fields: FieldSupport;
  /** Caller wire fields with no neutral meaning that the backend takes verbatim (`request.passthrough`), e.g. OpenAI's `web_search_options`. */
  relayed: PerEndpoint<ReadonlySet<string>>;
  /** The backend as the guard before the wire names it: "top_k is not supported by <the OpenAI chat API>: ...". */
  label: PerEndpoint<string>;
  /** Where each endpoint's wire carries the conversation, and in which family's form (the translation report reads it). */
  conversation: PerEndpoint<ConversationWire>;
}

/** The OpenAI wire's conversation: chat's messages (the system turn among them), the completions prompt. */
export const OPENAI_CONVERSATION: PerEndpoint<ConversationWire> = {
  chat: { form: 'openai', turns: 'messages', system: 'messages' },
  text: { form: 'openai', turns: 'prompt', system: 'prompt' },
};

/** Nothing relayed on either endpoint. */
export const NOTHING_RELAYED: PerEndpoint<ReadonlySet<string>> = { chat: new Set(), text: new Set() };

export const copy = (wire: string): FieldHandling => ({ kind: 'copy', wire });
/** A copy of a field whose values the backend knows: `oneOf('service_tier', {accepted: ['auto', 'flex']})`. */
export const oneOf = (wire: string, values: FieldValues): FieldHandling => ({ kind: 'copy', wire, values });
/** `wire`: the field it writes, where its note does not start with it (`convert('chat: logprobs true + ...', write, 'logprobs')`). */
export const convert = (note: string, write: WriteField, wire = leadingWireField(note)): FieldHandling => {
  return { kind: 'convert', note, write, ...(wire ? { wire } : {}) };
};

/**
 * A converter's note names first the wire field it writes, when it writes one
 * (`response_format (text, json_object, json_schema)`, `output_config.format {...}`,
 * `generationConfig.temperature`): its top-level key. Prose (`a thinking budget`, `chat: ...`) names none.
 */
function leadingWireField(note: string): string | undefined {
  return /^([a-z][A-Za-z]*(?:_[a-z]+)*)(?=$|[.,]| [({])/.exec(note)?.[1];
}
export const native = (note: string): FieldHandling => ({ kind: 'native', note });
export const emulate = (how: string): FieldHandling => ({ kind: 'emulate', how });
export const unsupported = (why: string): FieldHandling => ({ kind: 'unsupported', why });
/** A field the two endpoints of one backend treat differently. */
export const byEndpoint = (handling: PerEndpoint<FieldHandling>): PerEndpoint<FieldHandling> => handling;

/** Taken on chat; the completions endpoint has no such field. */
export const chatOnly = (handling: FieldHandling): PerEndpoint<FieldHandling> =>
  byEndpoint({ chat: handling, text: unsupported('only the chat endpoint takes it') });

/** The handling on one endpoint. */
export function handlingOf(table: FieldSupport, field: NeutralField, endpoint: Endpoint): FieldHandling {
  const entry = table[field];
  return 'kind' in entry ? entry : entry[endpoint];
}
