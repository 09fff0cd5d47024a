/**
 * Finds tool calls in generated text, for chat over completion-only backends.
 * `hermes`: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` (Hermes, Qwen);
 * `llama3-json`: the whole reply is `{"name": ..., "parameters": {...}}` (Llama 3.x).
 */
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../../model/request.js';

export type ToolCallFormat = 'hermes' | 'llama3-json';

export interface ParsedToolCalls {
  /** Text outside the tool calls. */
  text: string;
  calls: ToolCall[];
}

const hermesCall = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

export function parseToolCalls(text: string, format: ToolCallFormat = 'hermes'): ParsedToolCalls {
  if (format === 'llama3-json') {
    const call = toToolCall(text.trim().replace(/^<\|python_tag\|>/, ''));
    return call ? { text: '', calls: [call] } : { text, calls: [] };
  }
  const calls: ToolCall[] = [];
  const rest = text.replace(hermesCall, (whole, json: string) => {
    const call = toToolCall(json);
    if (!call) return whole;
    calls.push(call);
    return '';
  });
  return { text: calls.length > 0 ? rest.trim() : text, calls };
}

/** One call's JSON (`{name, arguments | parameters}`), or undefined when it is not one. */
export function toToolCall(json: string): ToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const { name, arguments: args, parameters } = value as Record<string, unknown>;
  if (typeof name !== 'string') return undefined;
  const input = args ?? parameters ?? {};
  return {
    id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    name,
    arguments: typeof input === 'string' ? input : JSON.stringify(input),
  };
}
