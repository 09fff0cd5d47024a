/**
 * The caller dialect a body's shape shows, when it shows one: `translate` reads it to pick the dialect
 * of a file, and the proxy to tell a caller who sent a body to another dialect's endpoint where it goes.
 */
import { isRecord } from '../model/is-record.js';
import type { Dialect } from './dialect.js';

/** A human name for each dialect, as its error hints say it. */
export const DIALECT_TITLES: Readonly<Record<Dialect['name'], string>> = {
  'openai-chat': 'OpenAI Chat Completions',
  'fireworks-completions': 'OpenAI/Fireworks Completions',
  'openai-responses': 'OpenAI Responses',
  'anthropic-messages': 'Anthropic Messages',
  gemini: 'Google Gemini',
};

/**
 * Chat when the body has `messages` (Messages when it also has a field, block or tool shape only
 * Anthropic has: `system`, `stop_sequences`, `tool_use`, a tool's `input_schema`...), completions when
 * it has a `prompt` (a text, a list or token ids: a Responses `prompt` is a template object), Gemini when it
 * has `contents`, Responses when it has `input` or `instructions`; undefined when it has none of these.
 * @example dialectNameOfBody({model: 'm', input: 'hi'}) // 'openai-responses'
 */
export function dialectNameOfBody(body: unknown): Dialect['name'] | undefined {
  if (!isRecord(body)) return undefined;
  if ('messages' in body) return looksAnthropic(body) ? 'anthropic-messages' : 'openai-chat';
  if ('prompt' in body && !isRecord(body.prompt)) return 'fireworks-completions';
  if ('contents' in body) return 'gemini';
  return 'input' in body || 'instructions' in body ? 'openai-responses' : undefined;
}

/** Top-level fields, and content blocks, that only Anthropic's Messages API has. */
const ANTHROPIC_FIELDS = ['system', 'stop_sequences', 'output_config', 'context_management', 'output_format'];
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document']);

function looksAnthropic(body: Record<string, unknown>): boolean {
  if (ANTHROPIC_FIELDS.some((field) => field in body)) return true;
  if (isRecord(body.tool_choice) && typeof body.tool_choice.type === 'string' && body.tool_choice.type !== 'function') return true;
  // Anthropic's tools are flat with an `input_schema`; chat's are wrapped (`{type: function, function}`).
  if (Array.isArray(body.tools) && body.tools.some((tool) => isRecord(tool) && 'input_schema' in tool)) return true;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.some(
    (message) =>
      isRecord(message) &&
      Array.isArray(message.content) &&
      message.content.some((block) => isRecord(block) && ANTHROPIC_BLOCKS.has(block.type as string)),
  );
}
