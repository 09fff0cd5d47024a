/** Responses `instructions` and `input` items -> chat `messages`, with every change (see migration.ts). */
import { isRecord } from '../../model/is-record.js';
import { type ChangeList, type Context, type Wire } from './migration.js';
import { isSet } from '../../model/is-set.js';

/** Responses content parts -> chat content parts. */
function responsesParts(parts: unknown[], path: string, changes: ChangeList): Wire[] {
  const out: Wire[] = [];
  parts.forEach((part, j) => {
    const at = `${path}[${j}]`;
    if (!isRecord(part)) return;
    switch (part.type) {
      case 'input_text':
      case 'output_text': {
        const text: Wire = { type: 'text', text: part.text };
        if (isSet(part.prompt_cache_breakpoint)) text.prompt_cache_breakpoint = part.prompt_cache_breakpoint;
        out.push(text);
        changes.converted(at, undefined, `an ${part.type} part is a text part`);
        if (Array.isArray(part.annotations) && part.annotations.length > 0)
          changes.dropped(`${at}.annotations`, "citations of an earlier answer: chat's messages have no place for them", false);
        if (isSet(part.logprobs))
          changes.dropped(`${at}.logprobs`, "an earlier answer's logprobs: chat's messages have no place for them", false);
        return;
      }
      case 'refusal':
        out.push({ type: 'refusal', refusal: part.refusal });
        return;
      case 'input_image': {
        if (isSet(part.file_id)) {
          changes.dropped(at, "an image by file id (stored by OpenAI): chat's image_url takes a URL or a data URL");
          return;
        }
        const image: Wire = { url: part.image_url };
        if (isSet(part.detail)) {
          image.detail = part.detail === 'original' ? 'high' : part.detail;
          if (part.detail === 'original')
            changes.converted(`${at}.detail`, `${at}.image_url.detail`, 'chat has no "original" detail: sent as "high"', true);
        }
        out.push({ type: 'image_url', image_url: image });
        changes.converted(at, undefined, 'an input_image part is an image_url part, its URL under image_url.url');
        return;
      }
      case 'input_file': {
        if (isSet(part.file_url)) {
          changes.dropped(at, 'a file by URL: chat takes file_data (base64) or a file id');
          return;
        }
        out.push({
          type: 'file',
          file: Object.fromEntries(['file_data', 'filename', 'file_id'].filter((key) => isSet(part[key])).map((key) => [key, part[key]])),
        });
        changes.converted(at, undefined, 'an input_file part is a file part, file_data, filename and file_id under file');
        if (isSet(part.detail)) changes.dropped(`${at}.detail`, 'chat has no detail for files');
        return;
      }
      default:
        changes.dropped(at, `a ${String(part.type)} part: chat has none`);
    }
  });
  return out;
}

/** A function_call_output's output -> a tool message's content: text, or parts. */
function outputContent(output: unknown, path: string, changes: ChangeList): unknown {
  return Array.isArray(output) ? responsesParts(output, path, changes) : output;
}

/** Item keys that are bookkeeping of OpenAI's stored items. */
const BOOKKEEPING = new Set(['id', 'status', 'phase', 'caller']);

/** `instructions` + `input` -> `messages`, grouped as the Responses dialect reads them (src/dialects/openai-responses/parse-input.ts). */
export function responsesConversation({ source, target, changes }: Context): void {
  const messages: Wire[] = [];
  if (typeof source.instructions === 'string') {
    messages.push({ role: 'system', content: source.instructions });
    changes.converted('instructions', 'messages[0]', 'the instructions are the first message, a system message');
  }
  const { input } = source;
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    changes.converted('input', 'messages', 'a text input is one user message');
  } else if (Array.isArray(input)) {
    changes.converted('input', 'messages', 'each message item a message; input_text and output_text parts as text');
    readItems(input, messages, changes);
  }
  target.messages = messages;
}

function readItems(items: unknown[], messages: Wire[], changes: ChangeList): void {
  /** Reasoning text waiting for the assistant turn after it, and the items it came from. */
  let reasoning: { text: string; path: string; from: string[] } | undefined;
  /** Called before the message is pushed: it will be the last one. */
  const takeReasoning = (message: Wire) => {
    if (reasoning && reasoning.text !== '') {
      message.reasoning_content = reasoning.text;
      for (const path of reasoning.from)
        changes.converted(
          path,
          `messages[${messages.length}].reasoning_content`,
          "a reasoning item is the reasoning_content of the assistant's message after it",
        );
    }
    reasoning = undefined;
  };

  items.forEach((item, i) => {
    const path = `input[${i}]`;
    if (!isRecord(item)) return;
    const type = item.type ?? 'message';
    for (const key of BOOKKEEPING) {
      if (isSet(item[key])) changes.dropped(`${path}.${key}`, "bookkeeping of OpenAI's stored items: chat has no place for it", false);
    }
    switch (type) {
      case 'message': {
        const role = item.role;
        const content = Array.isArray(item.content) ? responsesParts(item.content, `${path}.content`, changes) : item.content;
        const message: Wire = { role, content };
        if (role === 'assistant') takeReasoning(message);
        messages.push(message);
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const call =
          type === 'function_call'
            ? { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }
            : { id: item.call_id, type: 'custom', custom: { name: item.name, input: item.input } };
        if (isSet(item.namespace)) changes.dropped(`${path}.namespace`, 'chat has no tool namespaces');
        const last = messages[messages.length - 1];
        if (last?.role === 'assistant' && !reasoning) {
          ((last.tool_calls ??= []) as Wire[]).push(call);
        } else {
          const message: Wire = { role: 'assistant', content: null, tool_calls: [call] };
          takeReasoning(message);
          messages.push(message);
        }
        changes.converted(
          path,
          `messages[${messages.length - 1}].tool_calls`,
          `a ${String(type)} item is a tool call of the assistant's message (call_id as id)`,
        );
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputContent(item.output, `${path}.output`, changes) });
        changes.converted(path, `messages[${messages.length - 1}]`, `a ${String(type)} item is a tool message (call_id as tool_call_id)`);
        for (const key of ['name', 'namespace']) if (isSet(item[key])) changes.dropped(`${path}.${key}`, 'chat has no counterpart', false);
        return;
      case 'reasoning': {
        const parts = [...(Array.isArray(item.summary) ? item.summary : []), ...(Array.isArray(item.content) ? item.content : [])];
        const texts = parts.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).filter((text) => text !== '');
        if (isSet(item.encrypted_content))
          changes.dropped(`${path}.encrypted_content`, "OpenAI's encrypted reasoning: chat cannot carry it (reasoning_content is text)");
        reasoning = {
          text: [reasoning?.text, ...texts].filter((text) => text !== undefined && text !== '').join('\n\n'),
          path,
          from: [...(reasoning?.from ?? []), ...(texts.length > 0 ? [path] : [])],
        };
        return;
      }
      case 'item_reference':
        changes.dropped(path, 'names an item stored by OpenAI: send the item itself');
        return;
      default:
        changes.dropped(path, `a ${String(type)} item belongs to a hosted tool, which runs at OpenAI: chat has none`);
    }
  });
  if (reasoning && reasoning.text !== '')
    changes.dropped(reasoning.path, 'reasoning with no assistant turn after it: chat has no place for it');
}
