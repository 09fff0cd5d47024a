/**
 * Custom tools (OpenAI's free-text tools) on a backend that takes function
 * tools only, or whose prompt the proxy renders: each custom tool goes as a
 * function with one string parameter, `input`, and a call's arguments
 * `{"input": "..."}` come back unwrapped as the custom tool's input, whole or
 * streamed (a streamed custom call is held until its choice ends, then sent
 * whole). A string parameter holds any text, so the carrying is exact; a
 * grammar on the input is the plan's to enforce or refuse (plan.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Message, NeutralRequest, ToolCall, ToolDefinition } from '../../../model/request.js';
import type { ResultChoice } from '../../../model/result.js';
import type { StreamBatches } from '../../../model/stream-event.js';
import { mapEvents } from '../../../streaming/stream-batches.js';
import type { Engine } from './engine.js';

/** The one parameter a custom tool's function has. */
export const CUSTOM_INPUT = 'input';

/**
 * The request with its custom tools as functions and earlier custom calls as
 * function calls; returns the names to unwrap on the way back (undefined when there are none).
 */
export function customToolsAsFunctions(request: NeutralRequest): ReadonlySet<string> | undefined {
  const names = new Set<string>();
  if (request.tools?.some((tool) => tool.custom)) request.tools = request.tools.map((tool) => asFunction(tool, names));
  if (request.messages?.some((message) => message.toolCalls?.some((call) => call.custom)))
    request.messages = request.messages.map((message) => withFunctionCalls(message, names));
  return names.size > 0 ? names : undefined;
}

function asFunction(tool: ToolDefinition, names: Set<string>): ToolDefinition {
  if (!tool.custom) return tool;
  names.add(tool.name);
  const input: Record<string, unknown> = { type: 'string', description: 'The input, as free text.' };
  const fn: ToolDefinition = {
    name: tool.name,
    parameters: { type: 'object', properties: { [CUSTOM_INPUT]: input }, required: [CUSTOM_INPUT], additionalProperties: false },
  };
  if (tool.description !== undefined) fn.description = tool.description;
  return fn;
}

function withFunctionCalls(message: Message, names: Set<string>): Message {
  if (!message.toolCalls?.some((call) => call.custom)) return message;
  return {
    ...message,
    toolCalls: message.toolCalls.map((call) => {
      if (!call.custom) return call;
      names.add(call.name);
      return { id: call.id, name: call.name, arguments: JSON.stringify({ [CUSTOM_INPUT]: call.arguments }) };
    }),
  };
}

/**
 * A function call's arguments back to the custom tool's input: the `input`
 * string of `{"input": ...}`; arguments of another shape are the input as the model wrote them.
 * @example unwrapInput('{"input": "SELECT 1"}') // 'SELECT 1'
 */
export function unwrapInput(args: string): string {
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const input = (value as Record<string, unknown>)[CUSTOM_INPUT];
      if (typeof input === 'string') return input;
    }
  } catch {
    // not JSON: the model's text is the input
  }
  return args;
}

function unwrapCall(call: ToolCall, names: ReadonlySet<string>): ToolCall {
  return names.has(call.name) ? { ...call, arguments: unwrapInput(call.arguments), custom: true } : call;
}

function unwrapChoice(choice: ResultChoice, names: ReadonlySet<string>): ResultChoice {
  return choice.toolCalls ? { ...choice, toolCalls: choice.toolCalls.map((call) => unwrapCall(call, names)) } : choice;
}

/** The engine whose answers carry the custom tools' calls as such. */
export function unwrapCustomCalls(inner: Engine, names: ReadonlySet<string>): Engine {
  return {
    async complete(request, context) {
      const result = await inner.complete(request, context);
      return { ...result, choices: result.choices.map((choice) => unwrapChoice(choice, names)) };
    },
    stream(request, context) {
      return unwrapStream(() => inner.stream(request, context), names);
    },
  };
}

interface HeldCall {
  id?: string;
  name: string;
  args: string;
}

function unwrapStream(open: () => StreamBatches, names: ReadonlySet<string>): StreamBatches {
  /** choice -> call index -> a custom call being held (its arguments are JSON until they are whole). */
  const held = new Map<number, Map<number, HeldCall>>();
  return mapEvents(open, (event, out) => {
    if (event.type === 'tool-call-delta') {
      const calls = held.get(event.choice) ?? new Map<number, HeldCall>();
      const call = calls.get(event.index);
      if (call) {
        call.args += event.argumentsDelta;
        call.id ??= event.id;
        return;
      }
      if (event.name !== undefined && names.has(event.name)) {
        calls.set(event.index, { name: event.name, args: event.argumentsDelta, ...(event.id !== undefined ? { id: event.id } : {}) });
        held.set(event.choice, calls);
        return;
      }
    } else if (event.type === 'choice-end') {
      for (const [index, call] of held.get(event.choice) ?? []) {
        out.push({
          type: 'tool-call-delta',
          choice: event.choice,
          index,
          id: call.id ?? `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
          name: call.name,
          argumentsDelta: unwrapInput(call.args),
          custom: true,
        });
      }
      held.delete(event.choice);
    }
    out.push(event);
  });
}
