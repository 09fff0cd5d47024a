/**
 * Messages wire `system` and `messages` -> neutral messages. A user turn's
 * `tool_result` blocks become tool messages ahead of the rest of the turn; an
 * assistant turn's `thinking` becomes its reasoning (with the signature,
 * unless the proxy made it: thinking-signature.ts), `redacted_thinking` its
 * encrypted reasoning, `tool_use` its tool calls. Blocks the proxy cannot
 * carry (server tools' results, search results, files by id) are refused by
 * name: `messages[i].content[j]`.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { isSet } from '../../model/is-set.js';
import type { ContentPart, Message, ToolCall } from '../../model/request.js';
import type { CacheControl } from '../../model/vendor-data.js';
import { object, text } from '../wire-values.js';
import { stillApplies } from './system-effort.js';
import { isProxySignature } from './thinking-signature.js';

type Wire = Record<string, unknown>;

/** `system`: a string, or text blocks. */
export function parseSystem(value: unknown, field: string): Message {
  if (typeof value === 'string') return { role: 'system', content: value };
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be a string or an array of text blocks.`);
  return { role: 'system', content: value.map((block, j) => textBlock(object(block, `${field}[${j}]`), `${field}[${j}]`)) };
}

/** `messages`, in order; `warnings` hears what is carried less than exactly. */
export function parseConversation(value: unknown, field: string, warnings: string[]): Message[] {
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
  // A system message past its `clear_at` applies no more: left out, as the API leaves it (system-effort.ts).
  return value.flatMap((wire, i) => (stillApplies(value, i) ? parseTurn(object(wire, `${field}[${i}]`), `${field}[${i}]`, warnings) : []));
}

function parseTurn(wire: Wire, path: string, warnings: string[]): Message[] {
  const role = wire.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'system')
    throw invalidRequest(`${path}.role`, `${path}.role must be user, assistant or system.`);
  // A system message's `clear_at` and `output_config` (its effort) are read for the whole request (system-effort.ts).
  if (role === 'system') {
    refuseUnhonoured(wire, path, ['role', 'content', 'clear_at', 'output_config']);
    if (isSet(wire.clear_at) && wire.clear_at !== 'next_user_message' && wire.clear_at !== 'never')
      throw invalidRequest(`${path}.clear_at`, `${path}.clear_at must be next_user_message or never.`);
  }
  if (typeof wire.content === 'string') return [{ role, content: wire.content }];
  if (!Array.isArray(wire.content))
    throw invalidRequest(`${path}.content`, `${path}.content must be a string or an array of content blocks.`);
  const blocks = wire.content.map((block, j) => ({ block: object(block, `${path}.content[${j}]`), at: `${path}.content[${j}]` }));
  if (role === 'assistant') return [assistantTurn(blocks, path, warnings)];
  const results =
    role === 'user' ? blocks.filter(({ block }) => block.type === 'tool_result').map(({ block, at }) => toolResult(block, at)) : [];
  const parts = blocks
    .filter(({ block }) => block.type !== 'tool_result' || role !== 'user')
    .map(({ block, at }) => contentPart(block, at, role));
  // A turn of tool results alone answers the calls; one with text too goes on as the user's turn.
  return parts.length > 0 || results.length === 0 ? [...results, { role, content: parts }] : results;
}

function assistantTurn(blocks: readonly { block: Wire; at: string }[], path: string, warnings: string[]): Message {
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const thoughts: { thinking: string; signature?: string }[] = [];
  const redacted: string[] = [];
  for (const { block, at } of blocks) {
    if (block.type === 'tool_use') calls.push(toolUse(block, at));
    else if (block.type === 'thinking') thoughts.push(thinkingBlock(block, at));
    else if (block.type === 'redacted_thinking') redacted.push(text(block.data, `${at}.data`));
    else parts.push(contentPart(block, at, 'assistant'));
  }
  // A turn of tool calls alone has no content, as chat wires say it (null, never an empty list).
  const message: Message = { role: 'assistant', content: parts.length > 0 ? parts : calls.length > 0 ? null : '' };
  if (calls.length > 0) message.toolCalls = calls;
  if (redacted.length > 0) message.vendor = { anthropic: { redactedReasoning: redacted } };
  if (thoughts.length > 0) {
    message.reasoning = thoughts.map(({ thinking }) => thinking).join('\n\n');
    message.reasoningOrigin = `${path}.content`;
    const signatures = thoughts.map(({ signature }) => signature).filter((signature) => signature !== undefined);
    if (thoughts.length === 1 && signatures.length === 1) message.reasoningSignature = signatures[0];
    else if (signatures.length > 0)
      warnings.push(`${path}.content: ${thoughts.length} thinking blocks were joined into one; their signatures were not kept`);
  }
  return message;
}

/** A signature the proxy made marks reasoning of its own rendering: it is history, not a block to verify. */
function thinkingBlock(block: Wire, at: string): { thinking: string; signature?: string } {
  const thinking = text(block.thinking, `${at}.thinking`);
  const signature = isSet(block.signature) ? text(block.signature, `${at}.signature`) : undefined;
  return signature === undefined || isProxySignature(signature, thinking) ? { thinking } : { thinking, signature };
}

function toolUse(block: Wire, at: string): ToolCall {
  // A call the model made itself (`caller: {type: 'direct'}`), as every backend's are.
  refuseUnhonoured(block, at, [
    'type',
    'id',
    'name',
    'input',
    'cache_control',
    ...(isRecord(block.caller) && block.caller.type === 'direct' ? ['caller'] : []),
  ]);
  const call: ToolCall = {
    id: text(block.id, `${at}.id`),
    name: text(block.name, `${at}.name`),
    arguments: JSON.stringify(block.input ?? {}),
  };
  return cachedAt(call, cacheControlOf(block, at));
}

function toolResult(block: Wire, at: string): Message {
  refuseUnhonoured(block, at, ['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);
  const message: Message = { role: 'tool', toolCallId: text(block.tool_use_id, `${at}.tool_use_id`), content: '' };
  const cacheControl = cacheControlOf(block, at);
  if (typeof block.content === 'string' || !isSet(block.content)) {
    const content = typeof block.content === 'string' ? block.content : '';
    message.content = cacheControl ? [cachedAt<ContentPart>({ type: 'text', text: content }, cacheControl)] : content;
  } else if (Array.isArray(block.content)) {
    const parts = block.content.map((inner, k) => contentPart(object(inner, `${at}.content[${k}]`), `${at}.content[${k}]`, 'user'));
    if (parts.length > 0) parts[parts.length - 1] = cachedAt(parts[parts.length - 1], cacheControl);
    message.content = parts;
  } else {
    throw invalidRequest(`${at}.content`, `${at}.content must be a string or an array of content blocks.`);
  }
  if (block.is_error === true) message.toolError = true;
  return message;
}

/** A block that is content (text, an image, a document) in a turn of `role`. */
function contentPart(block: Wire, at: string, role: string): ContentPart {
  return cachedAt(contentOf(block, at, role), cacheControlOf(block, at));
}

function contentOf(block: Wire, at: string, role: string): ContentPart {
  switch (block.type) {
    case 'text':
      return textBlock(block, at);
    case 'image':
      if (role === 'assistant') break;
      return { type: 'image', url: imageUrl(object(block.source, `${at}.source`), `${at}.source`) };
    case 'document':
      if (role === 'assistant') break;
      return documentPart(block, at);
    case 'tool_use':
    case 'tool_result':
    case 'thinking':
    case 'redacted_thinking':
      break;
    default:
      throw unsupportedParameter(
        at,
        `${at} is a '${String(block.type)}' block, which is not supported by this proxy: server tools, search results and uploads belong to Anthropic's own service.`,
      );
  }
  throw invalidRequest(at, `${at}: a '${String(block.type)}' block cannot be in a ${role} turn.`);
}

function textBlock(block: Wire, at: string): ContentPart {
  if (block.type !== undefined && block.type !== 'text') throw invalidRequest(`${at}.type`, `${at} must be a text block.`);
  if (isSet(block.citations) && !(Array.isArray(block.citations) && block.citations.length === 0)) {
    throw unsupportedParameter(
      `${at}.citations`,
      `${at}.citations is not supported by this proxy: it carries no citations back to a model.`,
    );
  }
  return cachedAt<ContentPart>({ type: 'text', text: text(block.text, `${at}.text`) }, cacheControlOf(block, at));
}

/** base64 -> a data URL; url as it is. A file id names Anthropic's Files API, which no other backend has. */
function imageUrl(source: Wire, at: string): string {
  if (source.type === 'base64') return `data:${text(source.media_type, `${at}.media_type`)};base64,${text(source.data, `${at}.data`)}`;
  if (source.type === 'url') return text(source.url, `${at}.url`);
  throw unsupportedParameter(
    `${at}.type`,
    `${at}.type '${String(source.type)}' is not supported by this proxy: send the image as base64 or a URL.`,
  );
}

/** A PDF as a file part, plain text (or a content source) as text; a PDF by URL or file id is refused. */
function documentPart(block: Wire, at: string): ContentPart {
  // Citations switched off (or left unset) ask for nothing.
  const citations = isRecord(block.citations) && block.citations.enabled === true;
  refuseUnhonoured(block, at, ['type', 'source', 'cache_control', 'title', ...(citations ? [] : ['citations'])]);
  const source = object(block.source, `${at}.source`);
  const title = isSet(block.title) ? text(block.title, `${at}.title`) : undefined;
  if (source.type === 'base64') {
    const data = text(source.data, `${at}.source.data`);
    return {
      type: 'file',
      file: { file_data: `data:${text(source.media_type, `${at}.source.media_type`)};base64,${data}`, filename: title ?? 'document.pdf' },
    };
  }
  if (source.type === 'text') {
    const body = text(source.data, `${at}.source.data`);
    return { type: 'text', text: title === undefined ? body : `${title}\n\n${body}` };
  }
  if (source.type === 'content') {
    const inner =
      typeof source.content === 'string'
        ? source.content
        : Array.isArray(source.content)
          ? source.content.map((item, k) => textOf(item, `${at}.source.content[${k}]`)).join('\n')
          : '';
    return { type: 'text', text: title === undefined ? inner : `${title}\n\n${inner}` };
  }
  throw unsupportedParameter(
    `${at}.source.type`,
    `${at}.source.type '${String(source.type)}' is not supported by this proxy: send the document as base64 or text (the proxy fetches nothing).`,
  );
}

function textOf(item: unknown, at: string): string {
  if (!isRecord(item) || item.type !== 'text')
    throw unsupportedParameter(at, `${at}: only text blocks are supported in a document's content by this proxy.`);
  return text(item.text, `${at}.text`);
}

/** A block's `cache_control` (`at` '' for the request's own). */
/**
 * Keys the document accepts but the proxy does not carry (a tool's `allowed_callers`, a document's
 * `context`): set, they are refused by name rather than dropped.
 */
export function refuseUnhonoured(wire: Wire, at: string, honoured: readonly string[]): void {
  const key = Object.keys(wire).find((name) => !honoured.includes(name) && isSet(wire[name]));
  if (key !== undefined) throw unsupportedParameter(`${at}.${key}`, `${at}.${key} is not supported by this proxy.`);
}

/** A part, call or tool with its caching breakpoint, in Anthropic's namespace (a copy; itself without one). */
export function cachedAt<T extends { vendor?: { anthropic?: { cacheControl?: CacheControl } } }>(
  holder: T,
  cacheControl: CacheControl | undefined,
): T {
  if (!cacheControl) return holder;
  return { ...holder, vendor: { ...holder.vendor, anthropic: { ...holder.vendor?.anthropic, cacheControl } } };
}

export function cacheControlOf(block: Wire, at: string): CacheControl | undefined {
  if (!isSet(block.cache_control)) return undefined;
  const where = at === '' ? 'cache_control' : `${at}.cache_control`;
  const wire = object(block.cache_control, where);
  if (wire.type !== 'ephemeral') throw invalidRequest(`${where}.type`, `${where}.type must be 'ephemeral'.`);
  return isSet(wire.ttl) ? { type: 'ephemeral', ttl: text(wire.ttl, `${where}.ttl`) } : { type: 'ephemeral' };
}
