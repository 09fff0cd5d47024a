/** Chat `messages` -> Responses `instructions` and `input` items, with every change (see migration.ts). */
import { isRecord } from '../../model/is-record.js';
import { type ChangeList, type Context, type Wire } from './migration.js';
import { isSet } from '../../model/is-set.js';

/** Chat content parts -> Responses content parts (`output` for an assistant's earlier answer). */
function chatParts(parts: unknown[], path: string, output: boolean, changes: ChangeList): Wire[] {
  const out: Wire[] = [];
  parts.forEach((part, j) => {
    const at = `${path}[${j}]`;
    if (!isRecord(part)) return;
    switch (part.type) {
      case 'text': {
        const converted: Wire = { type: output ? 'output_text' : 'input_text', text: part.text };
        if (!output && isSet(part.prompt_cache_breakpoint)) converted.prompt_cache_breakpoint = part.prompt_cache_breakpoint;
        out.push(converted);
        changes.converted(at, undefined, `a text part is an ${String(converted.type)} part`);
        return;
      }
      case 'refusal':
        out.push({ type: 'refusal', refusal: part.refusal });
        return;
      case 'image_url': {
        const image = isRecord(part.image_url) ? part.image_url : {};
        const converted: Wire = { type: 'input_image', image_url: image.url };
        if (isSet(image.detail)) converted.detail = image.detail;
        out.push(converted);
        changes.converted(at, undefined, 'an image_url part is an input_image part, its URL as image_url');
        for (const key of Object.keys(image))
          if (key !== 'url' && key !== 'detail' && isSet(image[key]))
            changes.dropped(`${at}.image_url.${key}`, 'a Fireworks extension of chat; the Responses API has none');
        return;
      }
      case 'file': {
        const file = isRecord(part.file) ? part.file : {};
        out.push({
          type: 'input_file',
          ...Object.fromEntries(['file_data', 'filename', 'file_id'].filter((key) => isSet(file[key])).map((key) => [key, file[key]])),
        });
        changes.converted(at, undefined, 'a file part is an input_file part, file_data, filename and file_id beside its type');
        return;
      }
      case 'input_audio':
        changes.dropped(at, 'the Responses API takes no audio input');
        return;
      case 'video_url':
        changes.dropped(at, 'video input: a Fireworks extension of chat; the Responses API has none');
        return;
      default:
        changes.dropped(at, `a ${String(part.type)} part: the Responses API has none`);
    }
  });
  return out;
}

/** A chat tool call -> a `function_call` (or `custom_tool_call`) item. */
function callItem(call: Wire, id: string): Wire {
  if (call.type === 'custom' && isRecord(call.custom))
    return { type: 'custom_tool_call', call_id: id, name: call.custom.name, input: call.custom.input };
  let fn: unknown = call.function;
  if (typeof fn === 'string') {
    try {
      fn = JSON.parse(fn);
    } catch {
      fn = {};
    }
  }
  const spec = isRecord(fn) ? fn : {};
  return { type: 'function_call', call_id: id, name: spec.name, arguments: spec.arguments };
}

/** Message keys with a place in the Responses API (or handled below). */
const MESSAGE_KEYS = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'function_call', 'reasoning_content', 'refusal']);

/** `messages` -> `instructions` (a leading system message) and `input` items. */
export function chatMessages(value: unknown, field: string, { target, changes }: Context): void {
  if (!Array.isArray(value)) return changes.dropped(field, 'not an array');
  changes.converted(field, 'input', "each message an input item; text parts as input_text (an assistant's as output_text)");
  const input: Wire[] = [];
  /** Call ids of custom tools: their outputs are custom_tool_call_output items. */
  const customCalls = new Set<string>();
  /** Legacy function messages answer the latest function_call of the same name. */
  const functionCallIds = new Map<string, string>();
  const item = (wire: Wire) => input.push(wire) - 1;
  let previousRole: unknown;

  value.forEach((message, i) => {
    const path = `${field}[${i}]`;
    if (!isRecord(message)) return;
    const { role } = message;
    for (const key of Object.keys(message)) {
      if (MESSAGE_KEYS.has(key) || !isSet(message[key])) continue;
      changes.dropped(
        `${path}.${key}`,
        key === 'audio'
          ? "the assistant's earlier audio answer: the Responses API takes no audio"
          : `the Responses API's messages have no ${key}`,
      );
    }
    if (isSet(message.name) && role !== 'function')
      changes.dropped(`${path}.name`, "the Responses API's messages have no participant name");

    if (i === 0 && role === 'system' && typeof message.content === 'string') {
      target.instructions = message.content;
      changes.converted(path, 'instructions', 'the leading system message is the instructions');
    } else if (role === 'system' || role === 'developer' || role === 'user') {
      const content = Array.isArray(message.content)
        ? chatParts(message.content, `${path}.content`, false, changes)
        : (message.content ?? '');
      item({ role, content });
    } else if (role === 'assistant') {
      assistantItems(message, path, i);
    } else if (role === 'tool' || role === 'function') {
      const id = role === 'tool' ? String(message.tool_call_id) : (functionCallIds.get(String(message.name)) ?? `call_${i}`);
      const output = Array.isArray(message.content)
        ? chatParts(message.content, `${path}.content`, false, changes)
        : (message.content ?? '');
      const at = item({ type: customCalls.has(id) ? 'custom_tool_call_output' : 'function_call_output', call_id: id, output });
      changes.converted(
        path,
        `input[${at}]`,
        role === 'tool'
          ? "a tool message is a function_call_output item (a custom tool's: custom_tool_call_output), tool_call_id as call_id"
          : 'a legacy function message is a function_call_output item, paired with its call by call_id',
      );
    }
    previousRole = role;
  });

  function assistantItems(message: Wire, path: string, i: number): void {
    const calls: Wire[] = [];
    if (Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call, k) => {
        if (!isRecord(call)) return;
        const id = typeof call.id === 'string' ? call.id : `call_${i}_${k}`;
        if (call.type === 'custom') customCalls.add(id);
        calls.push(callItem(call, id));
      });
    }
    if (isRecord(message.function_call)) {
      const id = `call_${i}`;
      functionCallIds.set(String(message.function_call.name), id);
      calls.push({ type: 'function_call', call_id: id, name: message.function_call.name, arguments: message.function_call.arguments });
    }
    const reasoning =
      typeof message.reasoning_content === 'string' && message.reasoning_content !== '' ? message.reasoning_content : undefined;
    if (reasoning !== undefined) {
      const at = item({ type: 'reasoning', id: `rs_${i}`, summary: [{ type: 'summary_text', text: reasoning }] });
      changes.converted(
        `${path}.reasoning_content`,
        `input[${at}]`,
        "a reasoning item before the assistant's turn, its text in summary (as the proxy answers; OpenAI itself takes back only the reasoning items it made)",
      );
    }
    let content: unknown = message.content;
    if (Array.isArray(content)) content = chatParts(content, `${path}.content`, true, changes);
    if (typeof message.refusal === 'string') {
      content = [
        ...(Array.isArray(content)
          ? content
          : typeof content === 'string' && content !== ''
            ? [{ type: 'output_text', text: content }]
            : []),
        { type: 'refusal', refusal: message.refusal },
      ];
      changes.converted(`${path}.refusal`, undefined, 'a refusal part of the assistant message');
    }
    if (isSet(content) || calls.length === 0) item({ role: 'assistant', content: content ?? '' });
    else if (previousRole === 'assistant' && reasoning === undefined) {
      changes.converted(
        path,
        undefined,
        'its tool calls join the assistant turn before it: in the Responses API, calls after an assistant message belong to that turn',
        true,
      );
    }
    if (calls.length > 0) {
      const at = calls.map(item)[0];
      const name = Array.isArray(message.tool_calls) ? 'tool_calls' : 'function_call';
      changes.converted(
        `${path}.${name}`,
        `input[${at}]`,
        "each call is a function_call item after the assistant's message (a custom tool's: custom_tool_call), its id as call_id",
      );
    }
  }

  target.input = input;
}
