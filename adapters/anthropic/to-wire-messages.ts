/**
 * Neutral messages -> Anthropic's top-level `system` and `messages`.
 *  - system and developer messages: text blocks of `system` (Anthropic has no
 *    system turn inside the conversation; one that came later is named in a warning);
 *  - assistant messages: `thinking` (with its signature) and `redacted_thinking`
 *    blocks first, then text, then a `tool_use` block per call (`input` parsed from
 *    the call's JSON arguments);
 *  - tool results: `tool_result` blocks of one user turn (a run of them, and the user
 *    message right after, share it: Anthropic wants every result of a turn's calls in
 *    the next user turn, first);
 *  - images: data URLs as base64 sources, http(s) URLs as url sources; PDF files as documents.
 */
import { argumentsObject } from '../../src/model/tool-arguments.js';
import { invalidRequest } from '../../src/errors/proxy-error.js';
import type { ContentPart, Message, ToolCall } from '../../src/model/request.js';
import type { WireBody } from '../../src/backend/field-support.js';
import { cacheControlOf } from './to-wire-tools.js';
import { pushAll } from '../../src/model/push-all.js';

export interface AnthropicConversation {
  /** The system prompt as text blocks; absent without system or developer messages. */
  system?: WireBody[];
  messages: WireBody[];
}

type Turn = { role: 'user' | 'assistant'; content: string | WireBody[] };

/**
 * @example toWireMessages([{role: 'system', content: 'Be brief.'}, {role: 'user', content: 'Hi'}], [])
 * // {system: [{type: 'text', text: 'Be brief.'}], messages: [{role: 'user', content: 'Hi'}]}
 */
export function toWireMessages(messages: readonly Message[], warnings: string[]): AnthropicConversation {
  const system: WireBody[] = [];
  const turns: Turn[] = [];
  /** The user turn that holds the latest tool results, while nothing else has followed it. */
  let results: WireBody[] | undefined;
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        if (turns.length > 0)
          warnings.push(
            `${path} (${message.role}) was sent in the system prompt: Anthropic takes system text only before the conversation`,
          );
        pushAll(system, systemBlocks(message, path));
        return;
      case 'user':
        if (results) {
          pushAll(results, asBlocks(userContent(message, path)));
          results = undefined;
        } else turns.push({ role: 'user', content: userContent(message, path) });
        return;
      case 'assistant':
        results = undefined;
        turns.push({ role: 'assistant', content: assistantContent(message, path, warnings) });
        return;
      case 'tool':
      case 'function':
        if (!results) {
          results = [];
          turns.push({ role: 'user', content: results });
        }
        results.push(toolResult(message, path));
        return;
    }
  });
  return system.length > 0 ? { system, messages: turns } : { messages: turns };
}

function systemBlocks(message: Message, path: string): WireBody[] {
  const { content } = message;
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, j) => {
    if (part.type !== 'text') throw unsupportedPart(`${path}.content[${j}]`, `${part.type} parts in a system prompt`);
    return withCache({ type: 'text', text: part.text }, part);
  });
}

function userContent(message: Message, path: string): string | WireBody[] {
  const { content } = message;
  if (content === null) return [];
  if (typeof content === 'string') return content;
  return content.map((part, j) => partBlock(part, `${path}.content[${j}]`, true));
}

function assistantContent(message: Message, path: string, warnings: string[]): string | WireBody[] {
  const blocks: WireBody[] = [];
  if (message.reasoning !== undefined && message.reasoning !== '') {
    // Anthropic refuses a thinking block it did not sign: reasoning from elsewhere stays out.
    if (message.reasoningSignature) blocks.push({ type: 'thinking', thinking: message.reasoning, signature: message.reasoningSignature });
    else
      warnings.push(
        `${message.reasoningOrigin ?? `${path}.reasoning_content`} not sent: Anthropic takes earlier thinking only with the signature it came with`,
      );
  }
  for (const data of message.vendor?.anthropic?.redactedReasoning ?? []) blocks.push({ type: 'redacted_thinking', data });
  const { content } = message;
  if (typeof content === 'string' && content !== '') {
    if (blocks.length === 0 && !message.toolCalls?.length) return content;
    blocks.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part, j) => blocks.push(partBlock(part, `${path}.content[${j}]`, false)));
  }
  message.toolCalls?.forEach((call, k) => blocks.push(toolUse(call, `${path}.tool_calls[${k}]`)));
  return blocks.length > 0 ? blocks : '';
}

function toolUse(call: ToolCall, path: string): WireBody {
  const block: WireBody = {
    type: 'tool_use',
    id: call.id,
    name: call.name,
    input: toolInput(call.arguments, `${path}.function.arguments`),
  };
  const cacheControl = call.vendor?.anthropic?.cacheControl;
  if (cacheControl) block.cache_control = cacheControlOf(cacheControl);
  return block;
}

/** A call's JSON arguments as the object Anthropic's `input` is; none is `{}`. */
function toolInput(text: string, path: string): Record<string, unknown> {
  const input = argumentsObject(text);
  if (!input) throw invalidRequest(path, `${path} is not a JSON object: Anthropic takes a tool call's input as one.`);
  return input;
}

function toolResult(message: Message, path: string): WireBody {
  if (message.toolCallId === undefined)
    throw invalidRequest(`${path}.tool_call_id`, `${path} answers no tool call: Anthropic pairs each tool result with its call's id.`);
  const block: WireBody = { type: 'tool_result', tool_use_id: message.toolCallId };
  const { content } = message;
  if (typeof content === 'string' && content !== '') block.content = content;
  else if (Array.isArray(content) && content.length > 0)
    block.content = content.map((part, j) => partBlock(part, `${path}.content[${j}]`, true));
  if (message.toolError) block.is_error = true;
  return block;
}

function asBlocks(content: string | WireBody[]): WireBody[] {
  if (typeof content !== 'string') return content;
  return content === '' ? [] : [{ type: 'text', text: content }];
}

/** One content part; `media`: images and documents may appear (user turns and tool results, not assistant turns). */
function partBlock(part: ContentPart, path: string, media: boolean): WireBody {
  switch (part.type) {
    case 'text':
      return withCache({ type: 'text', text: part.text }, part);
    case 'refusal':
      return withCache({ type: 'text', text: part.refusal }, part);
    case 'image':
      if (!media) throw unsupportedPart(path, 'image parts in an assistant message');
      return withCache({ type: 'image', source: mediaSource(part.url, `${path}.image_url.url`) }, part);
    case 'file':
      if (!media) throw unsupportedPart(path, 'file parts in an assistant message');
      return withCache({ type: 'document', source: fileSource(part.file, `${path}.file`) }, part);
    case 'audio':
    case 'video':
      throw unsupportedPart(path, `${part.type} content parts`);
  }
}

function withCache(block: WireBody, part: ContentPart): WireBody {
  const cacheControl = part.vendor?.anthropic?.cacheControl;
  if (cacheControl) block.cache_control = cacheControlOf(cacheControl);
  return block;
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s;

/** A data URL (base64) or an http(s) URL -> an Anthropic source. */
function mediaSource(url: string, path: string): WireBody {
  const data = DATA_URL.exec(url);
  if (data) return { type: 'base64', media_type: data[1], data: data[3] };
  if (/^https?:\/\//i.test(url)) return { type: 'url', url };
  throw invalidRequest(path, `${path} must be an http(s) URL or a base64 data URL for Anthropic.`);
}

/** OpenAI's file part: its `file_data` (a base64 data URL) or a `file_url`; an OpenAI file id means nothing to Anthropic. */
function fileSource(file: Record<string, unknown>, path: string): WireBody {
  if (typeof file.file_data === 'string') return mediaSource(file.file_data, `${path}.file_data`);
  if (typeof file.file_url === 'string') return mediaSource(file.file_url, `${path}.file_url`);
  throw unsupportedPart(path, 'files by id (an OpenAI file id means nothing to Anthropic; send file_data)');
}

function unsupportedPart(path: string, what: string) {
  return invalidRequest(`${path}.type`, `${what} are not supported by the Anthropic Messages API.`, 'unsupported_parameter');
}
