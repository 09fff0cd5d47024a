/**
 * Gemini `contents` -> neutral messages. A `model` turn is one assistant message (thought parts its
 * reasoning, functionCall parts its tool calls, a sealed thoughtSignature its signed reasoning back);
 * a `user` turn's functionResponse parts are tool messages, its other parts one user message.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isSet } from '../../model/is-set.js';
import type { ContentPart, Message, ToolCall } from '../../model/request.js';
import type { DialectContext } from '../dialect.js';
import { object, text } from '../wire-values.js';
import { foreignSignatureWarning, openThoughtSignature } from './thought-signature.js';
import { restoreRedacted } from '../sealed-reasoning.js';

/** Part keys that are hints about how Google reads media: no backend here has them. */
const MEDIA_HINTS = ['videoMetadata', 'mediaResolution', 'partMetadata'] as const;

interface ParseState {
  warnings: string[];
  context: DialectContext | undefined;
  /** The calls of the last model turn not yet answered, by name, for a functionResponse without an `id`. */
  pending: Map<string, string[]>;
  /** One warning per request for signatures the proxy did not make. */
  foreignSignature?: string;
}

export function parseContents(value: unknown, field: string, warnings: string[], context?: DialectContext): Message[] {
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
  const state: ParseState = { warnings, context, pending: new Map() };
  const messages = value.flatMap((content, i) => parseContent(object(content, `${field}[${i}]`), `${field}[${i}]`, state));
  if (state.foreignSignature) warnings.push(foreignSignatureWarning(state.foreignSignature));
  return messages;
}

/** `systemInstruction`: its text parts, one system message. Its `role` is ignored, as Google ignores it (Gemini CLI sends `user`). */
export function parseSystemInstruction(value: unknown, field: string): Message {
  const content = object(value, field);
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const texts = parts.map((part, i) => {
    const at = `${field}.parts[${i}]`;
    const wire = object(part, at);
    if (!isSet(wire.text)) throw unsupportedParameter(at, `${at}: a system instruction takes text parts only.`);
    return text(wire.text, `${at}.text`);
  });
  return { role: 'system', content: texts.join('\n') };
}

function parseContent(content: Record<string, unknown>, at: string, state: ParseState): Message[] {
  const role = content.role ?? 'user';
  const parts = Array.isArray(content.parts) ? content.parts.map((part, i) => object(part, `${at}.parts[${i}]`)) : [];
  if (role === 'model') return [parseModelTurn(parts, at, state)];
  if (role === 'user' || role === 'function') return parseUserTurn(parts, at, state);
  throw invalidRequest(`${at}.role`, `${at}.role must be 'user' or 'model'; got '${String(role)}'.`);
}

function parseModelTurn(parts: Record<string, unknown>[], at: string, state: ParseState): Message {
  const message: Message = { role: 'assistant', content: null };
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  state.pending = new Map();
  parts.forEach((part, i) => {
    const where = `${at}.parts[${i}]`;
    dropMediaHints(part, where, state.warnings);
    if (typeof part.thoughtSignature === 'string') restoreSignature(message, part.thoughtSignature, `${where}.thoughtSignature`, state);
    if (isSet(part.functionCall)) {
      const call = parseFunctionCall(object(part.functionCall, `${where}.functionCall`), `${where}.functionCall`, calls.length, at);
      calls.push(call);
      state.pending.set(call.name, [...(state.pending.get(call.name) ?? []), call.id]);
    } else if (isSet(part.text)) (part.thought === true ? reasoning : texts).push(text(part.text, `${where}.text`));
    else if (isSet(part.executableCode) || isSet(part.codeExecutionResult)) dropCodeExecution(where, state.warnings);
    else if (isSet(part.inlineData) || isSet(part.fileData) || isSet(part.functionResponse))
      throw unsupportedParameter(where, `${where}: a model turn here takes text, thought and functionCall parts.`);
  });
  if (texts.length > 0) message.content = texts.join('');
  if (calls.length > 0) message.toolCalls = calls;
  // Thought parts the caller kept win over a sealed copy of the same reasoning.
  if (reasoning.length > 0) message.reasoning = reasoning.join('');
  return message;
}

function parseUserTurn(parts: Record<string, unknown>[], at: string, state: ParseState): Message[] {
  const results: Message[] = [];
  const content: ContentPart[] = [];
  parts.forEach((part, i) => {
    const where = `${at}.parts[${i}]`;
    dropMediaHints(part, where, state.warnings);
    if (typeof part.thoughtSignature === 'string') state.foreignSignature ??= `${where}.thoughtSignature`;
    if (isSet(part.functionResponse))
      results.push(parseFunctionResponse(object(part.functionResponse, `${where}.functionResponse`), `${where}.functionResponse`, state));
    else if (isSet(part.text)) content.push({ type: 'text', text: text(part.text, `${where}.text`) });
    else if (isSet(part.inlineData)) content.push(inlinePart(object(part.inlineData, `${where}.inlineData`), `${where}.inlineData`));
    else if (isSet(part.fileData)) content.push(filePart(object(part.fileData, `${where}.fileData`), `${where}.fileData`));
    else if (isSet(part.executableCode) || isSet(part.codeExecutionResult)) dropCodeExecution(where, state.warnings);
    else if (isSet(part.functionCall))
      throw invalidRequest(`${where}.functionCall`, `${where}.functionCall: a function call belongs in a model turn.`);
  });
  // Tool results answer the model's calls: they come before the user's own words.
  if (content.length > 0)
    results.push({ role: 'user', content: content.every((part) => part.type === 'text') ? joinTexts(content) : content });
  return results;
}

function joinTexts(parts: ContentPart[]): string | ContentPart[] {
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts;
}

/** A call keeps the caller's `id` (Gemini CLI makes its own); without one it gets an id from its place. */
function parseFunctionCall(call: Record<string, unknown>, at: string, index: number, turn: string): ToolCall {
  const name = text(call.name, `${at}.name`);
  const args = isSet(call.args) ? object(call.args, `${at}.args`) : {};
  const id = isSet(call.id) ? text(call.id, `${at}.id`) : `call_${turn.replace(/\D+/g, '_')}${index}`;
  return { id, name, arguments: JSON.stringify(args) };
}

function parseFunctionResponse(response: Record<string, unknown>, at: string, state: ParseState): Message {
  const name = text(response.name, `${at}.name`);
  if (isSet(response.parts) && Array.isArray(response.parts) && response.parts.length > 0)
    throw unsupportedParameter(
      `${at}.parts`,
      `${at}.parts (media in a function response) is not supported by this proxy: put it in a user part.`,
    );
  if (response.willContinue === true || isSet(response.scheduling))
    state.warnings.push(`${at}: willContinue and scheduling (non-blocking calls) were left out: each response is taken as final`);
  const queue = state.pending.get(name) ?? [];
  const id = isSet(response.id) ? text(response.id, `${at}.id`) : queue[0];
  if (id === undefined) throw invalidRequest(`${at}.name`, `${at} answers '${name}', which the model turn before it did not call.`);
  const left = queue.filter((pending) => pending !== id);
  state.pending.set(name, left);
  const body = isSet(response.response) ? object(response.response, `${at}.response`) : {};
  return { role: 'tool', toolCallId: id, content: JSON.stringify(body) };
}

/** inlineData: an image, audio or a file (a PDF...), as data. */
function inlinePart(data: Record<string, unknown>, at: string): ContentPart {
  const mimeType = text(data.mimeType, `${at}.mimeType`);
  const base64 = text(data.data, `${at}.data`);
  if (mimeType.startsWith('image/')) return { type: 'image', url: `data:${mimeType};base64,${base64}` };
  if (mimeType.startsWith('audio/')) return { type: 'audio', data: base64, format: mimeType.slice('audio/'.length) };
  const filename = typeof data.displayName === 'string' ? { filename: data.displayName } : {};
  return { type: 'file', file: { file_data: `data:${mimeType};base64,${base64}`, ...filename } };
}

/** fileData: an image or video at a URL; Google's file store (other kinds) is not the proxy's. */
function filePart(data: Record<string, unknown>, at: string): ContentPart {
  const uri = text(data.fileUri, `${at}.fileUri`);
  const mimeType = typeof data.mimeType === 'string' ? data.mimeType : '';
  if (mimeType.startsWith('image/')) return { type: 'image', url: uri };
  if (mimeType.startsWith('video/')) return { type: 'video', url: uri };
  throw unsupportedParameter(
    at,
    `${at} (a ${mimeType || 'file'} by URI) is not supported by this proxy, which has no file store: send it as inlineData.`,
  );
}

/** A sealed signature restores the reasoning the backend signed; any other is left out once, in a warning. */
function restoreSignature(message: Message, value: string, param: string, state: ParseState): void {
  const opened = openThoughtSignature(value, param, state.context);
  if (!opened) {
    state.foreignSignature ??= param;
    return;
  }
  if (opened.text !== undefined) message.reasoning ??= opened.text;
  if (opened.signature !== undefined) message.reasoningSignature = opened.signature;
  restoreRedacted(message, opened.redacted);
}

function dropMediaHints(part: Record<string, unknown>, at: string, warnings: string[]): void {
  for (const key of MEDIA_HINTS)
    if (isSet(part[key])) warnings.push(`${at}.${key}: a hint about how Google reads the part, which no backend here takes, was left out`);
}

function dropCodeExecution(at: string, warnings: string[]): void {
  warnings.push(`${at}: a part of Google's code execution (executableCode, codeExecutionResult) was left out: no backend here runs it`);
}
