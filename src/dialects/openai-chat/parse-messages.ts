/**
 * Chat wire `messages` -> neutral messages: every role (system, developer, user,
 * assistant, tool, legacy function) and every content part (text, image_url,
 * input_audio, file, refusal, Fireworks' video_url). Wire keys with no neutral
 * meaning are kept in `extra`, never dropped.
 */
import { invalidRequest } from '../../errors/proxy-error.js';
import type { ContentPart, Message, Role, ToolCall } from '../../model/request.js';
import { isSet } from '../../model/is-set.js';
import { object, text } from '../wire-values.js';

type Wire = Record<string, unknown>;

const ROLES: readonly Role[] = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/** Message keys with a neutral home; any other set key goes to `extra` (e.g. `refusal`, `audio`). */
const MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'function_call', 'reasoning_content']);

/** Set keys of `wire` outside `known`, or undefined when there are none. */
function leftovers(wire: Wire, known: readonly string[]): Wire | undefined {
  const rest = Object.entries(wire).filter(([key, value]) => !known.includes(key) && isSet(value));
  return rest.length > 0 ? Object.fromEntries(rest) : undefined;
}

/**
 * @example parseMessages([{role: 'user', content: 'Hi'}]) // [{role: 'user', content: 'Hi'}]
 */
export function parseMessages(value: unknown, field = 'messages'): Message[] {
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
  // Legacy function messages answer the latest assistant function_call of the same name.
  const functionCallIds = new Map<string, string>();
  return value.map((wire, i) => parseMessage(object(wire, `${field}[${i}]`), { path: `${field}[${i}]`, index: i, functionCallIds }));
}

interface MessagePlace {
  path: string;
  index: number;
  functionCallIds: Map<string, string>;
}

function parseMessage(wire: Wire, { path, index, functionCallIds }: MessagePlace): Message {
  if (!(ROLES as readonly unknown[]).includes(wire.role))
    throw invalidRequest(`${path}.role`, `${path}.role must be one of ${ROLES.join(', ')}.`);
  const message: Message = { role: wire.role as Role, content: parseContent(wire.content, `${path}.content`) };
  if (isSet(wire.name)) message.name = text(wire.name, `${path}.name`);
  if (isSet(wire.reasoning_content)) message.reasoning = text(wire.reasoning_content, `${path}.reasoning_content`);
  if (isSet(wire.tool_call_id)) message.toolCallId = text(wire.tool_call_id, `${path}.tool_call_id`);

  if (isSet(wire.tool_calls) && isSet(wire.function_call)) {
    throw invalidRequest(`${path}.function_call`, `${path}.function_call cannot be combined with tool_calls.`);
  }
  if (isSet(wire.tool_calls)) {
    if (!Array.isArray(wire.tool_calls)) throw invalidRequest(`${path}.tool_calls`, `${path}.tool_calls must be an array.`);
    // Fireworks makes a call's `id` optional; a position-based one keeps the neutral type whole.
    message.toolCalls = wire.tool_calls.map((call, k) => parseToolCall(call, `${path}.tool_calls[${k}]`, `call_${index}_${k}`));
  }
  if (isSet(wire.function_call)) {
    const call = object(wire.function_call, `${path}.function_call`);
    // Legacy calls have no id; a stable one lets a tools-only backend pair the answer with its call.
    const id = `call_${index}`;
    const name = text(call.name, `${path}.function_call.name`);
    message.toolCalls = [{ id, name, arguments: text(call.arguments, `${path}.function_call.arguments`) }];
    functionCallIds.set(name, id);
  }
  if (message.role === 'function' && message.name !== undefined && message.toolCallId === undefined) {
    const id = functionCallIds.get(message.name);
    if (id !== undefined) message.toolCallId = id;
  }

  const extra = leftovers(wire, [...MESSAGE_KEYS]);
  if (extra) message.extra = extra;
  return message;
}

/** `index` is accepted because clients echo streamed tool-call deltas back; it is only the array position. */
const TOOL_CALL_KEYS = ['id', 'type', 'function', 'index'];

function parseToolCall(value: unknown, path: string, fallbackId: string): ToolCall {
  const call = object(value, path);
  if (call.type === 'custom') return parseCustomToolCall(call, path, fallbackId);
  if (isSet(call.type) && call.type !== 'function') {
    throw invalidRequest(
      `${path}.type`,
      `Tool calls of type '${String(call.type)}' are not supported; only function and custom tool calls are.`,
    );
  }
  const unknown = leftovers(call, TOOL_CALL_KEYS);
  if (unknown) {
    const key = Object.keys(unknown)[0];
    throw invalidRequest(`${path}.${key}`, `Unrecognized tool call field: ${key}.`);
  }
  // Fireworks also takes `function` as JSON text.
  let fn: unknown = call.function;
  if (typeof fn === 'string') {
    try {
      fn = JSON.parse(fn);
    } catch {
      throw invalidRequest(`${path}.function`, `${path}.function is not valid JSON.`);
    }
  }
  const fnObject = object(fn, `${path}.function`);
  return {
    id: isSet(call.id) ? text(call.id, `${path}.id`) : fallbackId,
    name: text(fnObject.name, `${path}.function.name`),
    arguments: text(fnObject.arguments, `${path}.function.arguments`),
  };
}

/** A custom tool's call: `{id, type: 'custom', custom: {name, input}}`; the input is free text. */
function parseCustomToolCall(call: Wire, path: string, fallbackId: string): ToolCall {
  const unknown = leftovers(call, ['id', 'type', 'custom', 'index']);
  if (unknown) {
    const key = Object.keys(unknown)[0];
    throw invalidRequest(`${path}.${key}`, `Unrecognized tool call field: ${key}.`);
  }
  const custom = object(call.custom, `${path}.custom`);
  return {
    id: isSet(call.id) ? text(call.id, `${path}.id`) : fallbackId,
    name: text(custom.name, `${path}.custom.name`),
    arguments: text(custom.input, `${path}.custom.input`),
    custom: true,
  };
}

function parseContent(value: unknown, path: string): string | ContentPart[] | null {
  if (!isSet(value)) return null;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalidRequest(path, `${path} must be a string, an array of content parts, or null.`);
  return value.map((part, j) => parsePart(object(part, `${path}[${j}]`), `${path}[${j}]`));
}

function parsePart(part: Wire, path: string): ContentPart {
  switch (part.type) {
    case 'text':
      return withExtra({ type: 'text', text: text(part.text, `${path}.text`) }, leftovers(part, ['type', 'text']));
    case 'image_url':
      return urlPart('image', 'image_url', part, path);
    case 'video_url':
      return urlPart('video', 'video_url', part, path);
    case 'input_audio': {
      const audio = object(part.input_audio, `${path}.input_audio`);
      const nested = leftovers(audio, ['data', 'format']);
      const extra = merge(leftovers(part, ['type', 'input_audio']), nested && { input_audio: nested });
      return withExtra(
        { type: 'audio', data: text(audio.data, `${path}.input_audio.data`), format: text(audio.format, `${path}.input_audio.format`) },
        extra,
      );
    }
    case 'file':
      return withExtra({ type: 'file', file: object(part.file, `${path}.file`) }, leftovers(part, ['type', 'file']));
    case 'refusal':
      return withExtra({ type: 'refusal', refusal: text(part.refusal, `${path}.refusal`) }, leftovers(part, ['type', 'refusal']));
    default:
      throw invalidRequest(`${path}.type`, `Unsupported content part type: ${String(part.type)}.`);
  }
}

/** `image_url` / `video_url`: `{url, detail?}`, anything else (e.g. `max_frames`) under `extra`. */
function urlPart(type: 'image' | 'video', key: 'image_url' | 'video_url', part: Wire, path: string): ContentPart {
  const media = object(part[key], `${path}.${key}`);
  const out: Extract<ContentPart, { type: 'image' | 'video' }> = { type, url: text(media.url, `${path}.${key}.url`) };
  if (isSet(media.detail)) out.detail = text(media.detail, `${path}.${key}.detail`);
  const nested = leftovers(media, ['url', 'detail']);
  return withExtra(out, merge(leftovers(part, ['type', key]), nested && { [key]: nested }));
}

function merge(a: Wire | undefined, b: Wire | undefined): Wire | undefined {
  return a || b ? { ...a, ...b } : undefined;
}

function withExtra(part: ContentPart, extra: Wire | undefined): ContentPart {
  if (extra) part.extra = extra;
  return part;
}
