/**
 * Neutral messages -> Gemini's `systemInstruction` and `contents`.
 *  - system and developer messages, wherever they stand: text parts of
 *    `systemInstruction`, in order (Gemini has no system turn; a later one is named
 *    in a warning, as it moves ahead of the conversation);
 *  - user -> role `user`; assistant -> role `model`: text, then a `functionCall` part
 *    per call (`args` the parsed arguments, its `id` and the thoughtSignature its id
 *    carries: thought-signature.ts; a turn whose calls carry none gets Google's bypass
 *    value, with a warning);
 *  - tool results -> `functionResponse` parts `{id, name, response}` of a user turn
 *    (the name found from the call the result answers; a JSON object result as it
 *    is, anything else as `{result}`, a failed one as `{error}`);
 *  - consecutive turns of one role are merged: Gemini wants user and model turns to alternate;
 *  - images: data URLs -> `inlineData`, other URLs -> `fileData`; audio -> `inlineData`.
 */
import type { WireBody } from '../../src/backend/field-support.js';
import { argumentsObject } from '../../src/model/tool-arguments.js';
import { invalidRequest } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';
import { pushAll } from '../../src/model/push-all.js';
import type { ContentPart, Message, ToolCall } from '../../src/model/request.js';
import { readSignature, SKIP_SIGNATURE } from './thought-signature.js';

export interface GeminiConversation {
  systemInstruction?: WireBody;
  contents: WireBody[];
}

type Turn = { role: 'user' | 'model'; parts: WireBody[] };

/**
 * @example toWireContents([{role: 'system', content: 'Be brief.'}, {role: 'user', content: 'Hi'}], [])
 * // {systemInstruction: {parts: [{text: 'Be brief.'}]}, contents: [{role: 'user', parts: [{text: 'Hi'}]}]}
 */
export function toWireContents(messages: readonly Message[], warnings: string[]): GeminiConversation {
  const system: WireBody[] = [];
  const turns: Turn[] = [];
  /** Each call's name by its id (as the caller holds it), for the results that answer it. */
  const names = new Map<string, string>();
  const add = (role: Turn['role'], parts: WireBody[]) => {
    const last = turns[turns.length - 1];
    if (last?.role === role) pushAll(last.parts, parts);
    else turns.push({ role, parts });
  };
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        if (turns.length > 0)
          warnings.push(
            `${path} (${message.role}) was sent in systemInstruction: Gemini takes system text only apart from the conversation`,
          );
        pushAll(system, systemParts(message, path));
        return;
      case 'user':
        add('user', userParts(message.content, path));
        return;
      case 'assistant':
        add('model', modelParts(message, path, names, warnings));
        return;
      case 'tool':
      case 'function':
        add('user', [functionResponse(message, path, names)]);
        return;
    }
  });
  // A turn with no parts (an empty message) is refused by Gemini: it says nothing, so it goes.
  const contents = turns.filter((turn) => turn.parts.length > 0).map(({ role, parts }) => ({ role, parts }));
  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}

function systemParts(message: Message, path: string): WireBody[] {
  const { content } = message;
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, j) => {
    if (part.type !== 'text') throw unsupportedPart(`${path}.content[${j}]`, `${part.type} parts in a system message`);
    return { text: part.text };
  });
}

function userParts(content: Message['content'], path: string): WireBody[] {
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, j) => contentPart(part, `${path}.content[${j}]`));
}

function modelParts(message: Message, path: string, names: Map<string, string>, warnings: string[]): WireBody[] {
  const parts: WireBody[] = [];
  if (message.reasoning)
    warnings.push(
      `${message.reasoningOrigin ?? `${path}.reasoning_content`} not sent: Gemini keeps earlier reasoning in the thought signatures of its parts, not as text`,
    );
  const { content } = message;
  if (typeof content === 'string' && content !== '') parts.push({ text: content });
  else if (Array.isArray(content))
    content.forEach((part, j) => {
      if (part.type === 'text') parts.push({ text: part.text });
      else if (part.type === 'refusal') parts.push({ text: part.refusal });
      else throw unsupportedPart(`${path}.content[${j}]`, `${part.type} parts in an assistant message`);
    });
  const calls = (message.toolCalls ?? []).map((call, k) => functionCall(call, `${path}.tool_calls[${k}]`));
  message.toolCalls?.forEach((call) => names.set(call.id, call.name));
  if (calls.length > 0 && !calls.some((call) => call.thoughtSignature !== undefined)) {
    // A history from another model: Gemini 3 refuses an unsigned call, and documents this value for it.
    calls[0].thoughtSignature = SKIP_SIGNATURE;
    warnings.push(
      `${path}.tool_calls: no Gemini thought signature (a history from another model): sent with ${SKIP_SIGNATURE}, so the model reasons without its earlier thoughts`,
    );
  }
  return pushAll(parts, calls);
}

function functionCall(call: ToolCall, path: string): WireBody {
  const { id, signature } = readSignature(call.id);
  const part: WireBody = { functionCall: { id, name: call.name, args: argsOf(call.arguments, `${path}.function.arguments`) } };
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/** A call's JSON arguments as the object Gemini's `args` is; none is `{}`. */
function argsOf(text: string, path: string): Record<string, unknown> {
  const args = argumentsObject(text);
  if (!args) throw invalidRequest(path, `${path} is not a JSON object: Gemini takes a function call's args as one.`);
  return args;
}

function functionResponse(message: Message, path: string, names: ReadonlyMap<string, string>): WireBody {
  const callId = message.toolCallId;
  const name = (callId === undefined ? undefined : names.get(callId)) ?? message.name;
  if (name === undefined)
    throw invalidRequest(
      `${path}.tool_call_id`,
      `${path} answers no earlier tool call: Gemini names each function response after its call, so the call must be in the history.`,
    );
  const text = resultText(message.content, path);
  const response = message.toolError ? { error: parsedOr(text) } : asObject(text);
  const wire: WireBody = { name, response };
  if (callId !== undefined) wire.id = readSignature(callId).id;
  return { functionResponse: wire };
}

function resultText(content: Message['content'], path: string): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part, j) => {
      if (part.type !== 'text') throw unsupportedPart(`${path}.content[${j}]`, `${part.type} parts in a tool result`);
      return part.text;
    })
    .join('');
}

/** A result that is a JSON object goes as it is; any other text as `{result: text}` (Google's own examples' shape). */
function asObject(text: string): Record<string, unknown> {
  const value = parsedOr(text);
  return isRecord(value) ? value : { result: value };
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const DATA_URL = /^data:([^;,]+)((?:;[^;,]+)*);base64,(.*)$/s;

function contentPart(part: ContentPart, path: string): WireBody {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'refusal':
      return { text: part.refusal };
    case 'image':
    case 'video':
      return media(part.url, `${path}.${part.type === 'image' ? 'image_url' : 'video_url'}.url`);
    case 'audio':
      return { inlineData: { mimeType: `audio/${part.format}`, data: part.data } };
    case 'file':
      if (typeof part.file.file_data === 'string') return media(part.file.file_data, `${path}.file.file_data`);
      if (typeof part.file.file_url === 'string') return media(part.file.file_url, `${path}.file.file_url`);
      throw unsupportedPart(path, 'files by id (an OpenAI file id means nothing to Gemini; send file_data)');
  }
}

/** A base64 data URL -> `inlineData`; an http(s) or gs:// URL (a Files API URI included) -> `fileData`. */
function media(url: string, path: string): WireBody {
  const data = DATA_URL.exec(url);
  if (data) return { inlineData: { mimeType: data[1], data: data[3] } };
  if (/^(https?|gs):\/\//i.test(url)) {
    const mimeType = mimeOf(url);
    return { fileData: mimeType === undefined ? { fileUri: url } : { mimeType, fileUri: url } };
  }
  throw invalidRequest(path, `${path} must be an http(s) URL or a base64 data URL for Gemini.`);
}

const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

function mimeOf(url: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : MIME_BY_EXTENSION[extension];
}

function unsupportedPart(path: string, what: string) {
  return invalidRequest(`${path}.type`, `${what} are not supported by the Gemini API.`, 'unsupported_parameter');
}
