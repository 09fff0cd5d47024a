/**
 * A body of Anthropic's Messages API told from a chat one (both have `messages`) by a field, block or tool
 * shape only Anthropic has: `system`, `stop_sequences`, `tool_use`, a tool's `input_schema`... (`Dialect.recognize`).
 */
import { isRecord } from '../../model/is-record.js';

/** Top-level fields, and content blocks, that only Anthropic's Messages API has. */
const ANTHROPIC_FIELDS = ['system', 'stop_sequences', 'output_config', 'context_management', 'output_format'];
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document']);

/** 2 for a body with `messages` and something only Anthropic has; 1 for `messages` alone (a chat body's too); else 0. */
export function recognizeMessages(body: Record<string, unknown>): number {
  if (!('messages' in body)) return 0;
  return looksAnthropic(body) ? 2 : 1;
}

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
