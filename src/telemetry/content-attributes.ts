/**
 * Prompt and completion text as the GenAI conventions' opt-in attributes
 * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`:
 * JSON in the conventions' message shape, role and parts). Only built when
 * `telemetry.captureContent` (or OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) asks;
 * each cut at SPAN_LIMITS.contentBytes, still JSON (bound-attributes.ts).
 */
import type { Attributes } from '@opentelemetry/api';
import type { ContentPart, Message, NeutralRequest } from '../model/request.js';
import type { NeutralResult } from '../model/result.js';
import { SPAN_LIMITS, boundJson } from './bound-attributes.js';
import { GEN_AI } from './genai-attributes.js';

type Part = Record<string, unknown>;
const contentJson = (value: unknown) => boundJson(value, SPAN_LIMITS.contentBytes);

interface ChatMessage {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

export function inputAttributes(request: NeutralRequest): Attributes {
  if (!request.messages) {
    const prompt = typeof request.prompt === 'string' ? request.prompt : JSON.stringify(request.prompt ?? '');
    return { [GEN_AI.inputMessages]: contentJson([{ role: 'user', parts: [{ type: 'text', content: prompt }] }]) };
  }
  const system = request.messages.filter((message) => message.role === 'system' || message.role === 'developer');
  const rest = request.messages.filter((message) => message.role !== 'system' && message.role !== 'developer');
  const attributes: Attributes = { [GEN_AI.inputMessages]: contentJson(rest.map(toChatMessage)) };
  if (system.length > 0) attributes[GEN_AI.systemInstructions] = contentJson(system.flatMap((message) => partsOf(message.content)));
  return attributes;
}

/** One output message per choice: its text (and reasoning, tool calls) and finish reason. */
export interface CapturedChoice {
  text: string;
  reasoning?: string;
  toolCalls?: { id?: string; name?: string; arguments: string }[];
  finishReason?: string;
}

export function outputAttributes(choices: readonly CapturedChoice[]): Attributes {
  const messages = choices.map((choice) => {
    const parts: Part[] = [];
    if (choice.reasoning) parts.push({ type: 'reasoning', content: choice.reasoning });
    if (choice.text) parts.push({ type: 'text', content: choice.text });
    for (const call of choice.toolCalls ?? []) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
    return { role: 'assistant', parts, ...(choice.finishReason ? { finish_reason: choice.finishReason } : {}) };
  });
  return { [GEN_AI.outputMessages]: contentJson(messages) };
}

export function capturedChoicesOf(result: NeutralResult): CapturedChoice[] {
  return result.choices.map((choice) => ({
    text: choice.text,
    ...(choice.reasoning ? { reasoning: choice.reasoning } : {}),
    ...(choice.toolCalls ? { toolCalls: choice.toolCalls } : {}),
    ...(choice.finishReason ? { finishReason: choice.finishReason } : {}),
  }));
}

function toChatMessage(message: Message): ChatMessage {
  const parts = partsOf(message.content);
  if (message.reasoning) parts.unshift({ type: 'reasoning', content: message.reasoning });
  for (const call of message.toolCalls ?? []) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  if (message.role === 'tool' && message.toolCallId)
    return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.toolCallId, response: textOf(parts) }] };
  return { role: message.role, parts };
}

function partsOf(content: string | ContentPart[] | null): Part[] {
  if (content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', content }];
  return content.map((part) => {
    switch (part.type) {
      case 'text':
        return { type: 'text', content: part.text };
      case 'refusal':
        return { type: 'text', content: part.refusal };
      case 'image':
      case 'video':
        return { type: 'uri', modality: part.type, uri: part.url.startsWith('data:') ? '(inline data)' : part.url };
      default:
        return { type: 'blob', modality: part.type };
    }
  });
}

function textOf(parts: Part[]): string {
  return parts.map((part) => (typeof part.content === 'string' ? part.content : '')).join('');
}
