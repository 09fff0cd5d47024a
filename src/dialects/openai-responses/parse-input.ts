/**
 * Responses `input` (a string, or a list of items) -> neutral messages.
 * Messages keep their role; `function_call` / `custom_tool_call` items join the
 * assistant turn they belong to (consecutive calls are one turn, as a chat
 * assistant message with several `tool_calls`), a namespaced call under its
 * flattened name (tool-names.ts); their outputs become tool messages; a
 * `reasoning` item is the reasoning of the assistant turn that follows it.
 * Items that only record a hosted tool's work at OpenAI (a web search, a file
 * search...) are dropped with a warning: the answer that used them follows as
 * text. Calls of the other built-in tools (computer use, a local shell...)
 * are refused by name: they carry the conversation, and no backend here makes them.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import type { ContentPart, Message, Role, ToolCall } from '../../model/request.js';
import { isSet } from '../../model/is-set.js';
import { text } from '../wire-values.js';
import { checkKeys } from './wire-keys.js';
import { HOSTED_ITEMS } from './hosted-tools.js';
import { ToolNames } from './tool-names.js';
import type { Sealer } from '../sealer.js';
import { COMPACTION_PREFIX, openCompaction, openReasoning, type SealedReasoning } from './sealed-items.js';
import { restoreRedacted } from '../sealed-reasoning.js';

type Wire = Record<string, unknown>;

const ROLES: readonly Role[] = ['user', 'assistant', 'system', 'developer'];

/** What a parse leaves besides the messages: the lossy changes it made. */
export interface ParsedInput {
  messages: Message[];
  warnings: string[];
}

/**
 * `names`: the request's tool names, for namespaced calls (none by default).
 * @example parseInput('Hi', 'input') // {messages: [{role: 'user', content: 'Hi'}], warnings: []}
 */
export function parseInput(value: unknown, field = 'input', names = ToolNames.of(undefined), sealer?: Sealer): ParsedInput {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: value }], warnings: [] };
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be a string or an array of items.`);
  const reader = new InputReader(names, sealer);
  value.forEach((item, i) => {
    const path = `${field}[${i}]`;
    if (!isRecord(item)) throw invalidRequest(path, `${path} must be an object.`);
    reader.read(item, path);
  });
  return reader.finish();
}

/** An earlier output's id and status only say where it came from. */
const BOOKKEEPING = ['type', 'id', 'status'];

/** The keys each item kind reads (the rest is refused by name, wire-keys.ts). */
const ITEM_KEYS: Readonly<Record<string, readonly string[]>> = {
  message: [...BOOKKEEPING, 'role', 'content'],
  function_call: [...BOOKKEEPING, 'call_id', 'namespace', 'name', 'arguments'],
  // An output may name its call's function (and namespace) again: outputs are matched by call_id.
  function_call_output: [...BOOKKEEPING, 'call_id', 'output', 'namespace', 'name'],
  custom_tool_call: [...BOOKKEEPING, 'call_id', 'namespace', 'name', 'input'],
  custom_tool_call_output: [...BOOKKEEPING, 'call_id', 'output'],
  reasoning: [...BOOKKEEPING, 'summary', 'content', 'encrypted_content'],
  compaction: [...BOOKKEEPING, 'encrypted_content', 'created_by'],
};

/** The keys each content part kind reads; `prompt_cache_breakpoint` is kept for a backend that takes it, as chat keeps it. */
const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  input_text: ['type', 'text', 'prompt_cache_breakpoint'],
  // An earlier answer's annotations and logprobs are output only.
  output_text: ['type', 'text', 'annotations', 'logprobs'],
  refusal: ['type', 'refusal'],
  input_image: ['type', 'image_url', 'file_id', 'detail', 'prompt_cache_breakpoint'],
  input_file: ['type', 'file_data', 'file_id', 'filename', 'file_url', 'prompt_cache_breakpoint'],
  input_audio: ['type', 'input_audio', 'data', 'format'],
};

class InputReader {
  private readonly messages: Message[] = [];
  private readonly warnings: string[] = [];
  /** Reasoning waiting for the assistant turn that follows it, and the item it came from. */
  private reasoning?: { text: string; path: string; signature?: string; redacted?: string[] };

  /** `sealer`: the proxy's, which opens what it sealed; the offline commands have none. */
  constructor(
    private readonly names: ToolNames,
    private readonly sealer?: Sealer,
  ) {}

  read(item: Wire, path: string): void {
    const type = item.type ?? 'message';
    const keys = ITEM_KEYS[String(type)];
    if (keys) checkKeys(item, path, keys);
    switch (type) {
      case 'message':
        this.message(item, path);
        return;
      case 'function_call':
        this.call({
          id: text(item.call_id, `${path}.call_id`),
          name: this.calledName(item, path),
          arguments: text(item.arguments, `${path}.arguments`),
        });
        return;
      case 'custom_tool_call':
        this.call({
          id: text(item.call_id, `${path}.call_id`),
          name: this.calledName(item, path),
          arguments: text(item.input, `${path}.input`),
          custom: true,
        });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.messages.push({
          role: 'tool',
          toolCallId: text(item.call_id, `${path}.call_id`),
          content: outputContent(item.output, `${path}.output`),
        });
        return;
      case 'reasoning':
        this.reasoningItem(item, path);
        return;
      case 'compaction':
        this.compaction(item, path);
        return;
      case 'item_reference':
        // The AI SDK's OpenAI provider sends references by default (its store: true): say both ways out.
        throw unsupportedParameter(
          path,
          `${path} is an item_reference, which needs a response store, and none is configured: configure responses.store (see the README), or send the item itself (the AI SDK's OpenAI provider does with providerOptions.openai.store: false).`,
        );
      default:
        if (HOSTED_ITEMS.has(String(type))) {
          this.warnings.push(
            `${path} dropped: a '${String(type)}' item, which records the work of a hosted tool at OpenAI (no backend here runs it)`,
          );
          return;
        }
        throw unsupportedParameter(
          `${path}.type`,
          `${path} is a '${String(type)}' item, which is not supported by this proxy: no backend behind it makes or reads the items of OpenAI's built-in tools; send function_call and function_call_output items for your own tools.`,
        );
    }
  }

  /** A call's tool as the backend knows it: a namespaced one under its flattened name. */
  private calledName(item: Wire, path: string): string {
    const name = text(item.name, `${path}.name`);
    return isSet(item.namespace) ? this.names.flat(text(item.namespace, `${path}.namespace`), name) : name;
  }

  finish(): ParsedInput {
    if (this.reasoning) this.warnings.push(`${this.reasoning.path}: a reasoning item with no assistant turn after it was dropped`);
    return { messages: this.messages, warnings: this.warnings };
  }

  private message(item: Wire, path: string): void {
    if (!(ROLES as readonly unknown[]).includes(item.role))
      throw invalidRequest(`${path}.role`, `${path}.role must be one of ${ROLES.join(', ')}.`);
    const role = item.role as Role;
    const content = messageContent(item.content, `${path}.content`, role);
    if (role !== 'assistant') {
      this.messages.push({ role, content });
      return;
    }
    const message: Message = { role: 'assistant', content };
    this.takeReasoning(message);
    this.messages.push(message);
  }

  /** A call joins the assistant turn before it when that turn is the last message; otherwise it opens one. */
  private call(call: ToolCall): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === 'assistant' && !this.reasoning) {
      (last.toolCalls ??= []).push(call);
      return;
    }
    const message: Message = { role: 'assistant', content: null, toolCalls: [call] };
    this.takeReasoning(message);
    this.messages.push(message);
  }

  private reasoningItem(item: Wire, path: string): void {
    const parts = [...list(item.summary, `${path}.summary`), ...list(item.content, `${path}.content`)];
    const pieces = parts.map((part, j) =>
      isRecord(part) && typeof part.text === 'string' ? part.text : text(undefined, `${path}.summary[${j}].text`),
    );
    // The proxy's own sealed reasoning is the whole of it, signed as the backend gave it; its summary is the same text.
    const sealed = isSet(item.encrypted_content) ? this.openReasoning(item.encrypted_content, `${path}.encrypted_content`) : undefined;
    const own = sealed?.text !== undefined ? [sealed.text] : pieces;
    const joined = [this.reasoning?.text, ...own].filter((piece) => piece !== undefined && piece !== '').join('\n\n');
    const signature = sealed?.text !== undefined && this.reasoning === undefined ? sealed.signature : undefined;
    this.reasoning = {
      text: joined,
      path,
      ...(signature !== undefined ? { signature } : {}),
      ...(sealed?.redacted?.length ? { redacted: sealed.redacted } : {}),
    };
  }

  /** What the proxy sealed; without a sealer (the offline commands) nothing opens, and the item's text is what there is. */
  private openReasoning(value: unknown, param: string): SealedReasoning | undefined {
    if (this.sealer) return openReasoning(this.sealer, value, param);
    this.warnings.push(`${param} not read: only the running proxy opens what it sealed; the item's summary text is used`);
    return undefined;
  }

  /** A summary the proxy made of earlier turns (responses/compact): the conversation goes on from it, as a user turn. */
  private compaction(item: Wire, path: string): void {
    const param = `${path}.encrypted_content`;
    const summary = this.sealer ? openCompaction(this.sealer, item.encrypted_content, param) : undefined;
    if (summary === undefined) {
      this.warnings.push(`${param} not read: only the running proxy opens what it sealed; the compaction item is left out`);
      return;
    }
    this.messages.push({ role: 'user', content: `${COMPACTION_PREFIX}${summary}` });
  }

  private takeReasoning(message: Message): void {
    const reasoning = this.reasoning;
    this.reasoning = undefined;
    if (!reasoning) return;
    if (reasoning.text !== '') {
      message.reasoning = reasoning.text;
      message.reasoningOrigin = reasoning.path;
      if (reasoning.signature !== undefined) message.reasoningSignature = reasoning.signature;
    }
    restoreRedacted(message, reasoning.redacted);
  }
}

function list(value: unknown, path: string): unknown[] {
  if (!isSet(value)) return [];
  if (!Array.isArray(value)) throw invalidRequest(path, `${path} must be an array.`);
  return value;
}

/** An assistant's earlier output is text (its `output_text` parts joined); other roles keep their parts. */
function messageContent(value: unknown, path: string, role: Role): string | ContentPart[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalidRequest(path, `${path} must be a string or an array of content parts.`);
  const parts = value.map((part, j) => contentPart(part, `${path}[${j}]`));
  return role === 'assistant' ? joinedText(parts) : parts;
}

function contentPart(value: unknown, path: string): ContentPart {
  if (!isRecord(value)) throw invalidRequest(path, `${path} must be an object.`);
  const keys = PART_KEYS[String(value.type)];
  if (keys) checkKeys(value, path, keys);
  const part = partOf(value, path);
  if (isSet(value.prompt_cache_breakpoint)) part.extra = { prompt_cache_breakpoint: value.prompt_cache_breakpoint };
  return part;
}

function partOf(value: Wire, path: string): ContentPart {
  switch (value.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: text(value.text, `${path}.text`) };
    case 'refusal':
      return { type: 'refusal', refusal: text(value.refusal, `${path}.refusal`) };
    case 'input_image': {
      if (isSet(value.file_id)) throw fileIdRefused(`${path}.file_id`, 'image_url (a URL or a data URL)');
      const part: ContentPart = { type: 'image', url: text(value.image_url, `${path}.image_url`) };
      if (isSet(value.detail)) part.detail = text(value.detail, `${path}.detail`);
      return part;
    }
    case 'input_file': {
      if (isSet(value.file_id)) throw fileIdRefused(`${path}.file_id`, 'file_data (base64) with a filename');
      if (isSet(value.file_url))
        throw unsupportedParameter(
          `${path}.file_url`,
          `${path}.file_url is not supported by this proxy: send the file as file_data (base64) with a filename.`,
        );
      const file: Wire = { file_data: text(value.file_data, `${path}.file_data`) };
      if (isSet(value.filename)) file.filename = text(value.filename, `${path}.filename`);
      return { type: 'file', file };
    }
    case 'input_audio': {
      const audio = isRecord(value.input_audio) ? value.input_audio : value;
      return {
        type: 'audio',
        data: text(audio.data, `${path}.input_audio.data`),
        format: text(audio.format, `${path}.input_audio.format`),
      };
    }
    default:
      throw invalidRequest(`${path}.type`, `Unsupported content part type: ${String(value.type)}.`);
  }
}

function fileIdRefused(param: string, instead: string) {
  return unsupportedParameter(
    param,
    `${param} is not supported by this proxy: a file id names a file stored by OpenAI; send ${instead} instead.`,
  );
}

/** A tool's output: a string, or content parts (their text joined, images kept as parts). */
function outputContent(value: unknown, path: string): string | ContentPart[] {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw invalidRequest(path, `${path} must be a string or an array of content parts.`);
  return joinedText(value.map((part, j) => contentPart(part, `${path}[${j}]`)));
}

/** Text parts alone are one text; parts with anything else (an image, a cache breakpoint) stay parts. */
function joinedText(parts: ContentPart[]): string | ContentPart[] {
  return parts.every((part) => part.type === 'text' && !part.extra)
    ? parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : parts;
}
