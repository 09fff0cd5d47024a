/**
 * Neutral messages -> OpenAI-compatible chat `messages` (OpenAI and Fireworks
 * share the shape). Wire keys kept in `extra` are restored as they came.
 */
import { invalidRequest } from '../../src/errors/proxy-error.js';
import type { ContentPart, Message } from '../../src/model/request.js';
import { isRecord } from '../../src/model/is-record.js';

type Wire = Record<string, unknown>;

export interface WireMessagesOptions {
  /** Whether the backend takes `reasoning_content` on input messages (Fireworks does, OpenAI does not). */
  reasoning: boolean;
  /** Content part types the backend does not take: a 400 naming the part. */
  unsupportedParts: ReadonlySet<ContentPart['type']>;
  /** Named in errors and warnings, e.g. 'OpenAI'. */
  backend: string;
  /** Lossy changes are pushed here (they end up in `x-dialect-warnings`). */
  warnings: string[];
}

/**
 * @example toWireMessages([{role: 'user', content: 'Hi'}], options) // [{role: 'user', content: 'Hi'}]
 */
export function toWireMessages(messages: readonly Message[], options: WireMessagesOptions): Wire[] {
  return messages.map((message, i) => toWireMessage(message, `messages[${i}]`, options));
}

function toWireMessage(message: Message, path: string, options: WireMessagesOptions): Wire {
  const wire: Wire = { ...message.extra };
  // A legacy function result that answers a call we send as a tool call must be a tool message.
  const asTool = message.role === 'function' && message.toolCallId !== undefined;
  wire.role = asTool ? 'tool' : message.role;
  wire.content = Array.isArray(message.content)
    ? message.content.map((part, j) => toWirePart(part, `${path}.content[${j}]`, options))
    : message.content;
  if (message.name !== undefined && !asTool) wire.name = message.name;
  if (message.toolCalls?.length) {
    wire.tool_calls = message.toolCalls.map((call) =>
      call.custom
        ? { id: call.id, type: 'custom', custom: { name: call.name, input: call.arguments } }
        : { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
    );
  }
  if (message.toolCallId !== undefined) wire.tool_call_id = message.toolCallId;
  if (message.reasoning !== undefined) {
    if (options.reasoning) wire.reasoning_content = message.reasoning;
    // Chat templates drop earlier reasoning anyway; refusing the whole conversation would help no one.
    else
      options.warnings.push(
        `${message.reasoningOrigin ?? `${path}.reasoning_content`} not sent: ${options.backend} takes no reasoning on input messages`,
      );
  }
  return wire;
}

function toWirePart(part: ContentPart, path: string, options: WireMessagesOptions): Wire {
  if (options.unsupportedParts.has(part.type)) {
    throw invalidRequest(`${path}.type`, `${part.type} content parts are not supported by ${options.backend}.`, 'unsupported_parameter');
  }
  let wire: Wire;
  switch (part.type) {
    case 'text':
      wire = { type: 'text', text: part.text };
      break;
    case 'image':
      wire = { type: 'image_url', image_url: media(part) };
      break;
    case 'video':
      wire = { type: 'video_url', video_url: media(part) };
      break;
    case 'audio':
      wire = { type: 'input_audio', input_audio: { data: part.data, format: part.format } };
      break;
    case 'file':
      wire = { type: 'file', file: part.file };
      break;
    case 'refusal':
      wire = { type: 'refusal', refusal: part.refusal };
      break;
  }
  return withExtra(wire, part.extra);
}

function media(part: { url: string; detail?: string }): Wire {
  return part.detail === undefined ? { url: part.url } : { url: part.url, detail: part.detail };
}

/** `extra` holds a part's unknown keys; those of its nested object (e.g. `image_url.max_frames`) sit under that key. */
function withExtra(wire: Wire, extra: Record<string, unknown> | undefined): Wire {
  if (!extra) return wire;
  for (const [key, value] of Object.entries(extra)) {
    const nested = wire[key];
    wire[key] = isRecord(nested) && isRecord(value) ? { ...nested, ...value } : value;
  }
  return wire;
}
