/** A wire `finish_reason` -> the neutral one. Unknown reasons are named, never guessed. */
import type { FinishReason } from '../../src/model/result.js';

const KNOWN: ReadonlySet<string> = new Set<FinishReason>(['stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'error']);

/** Spellings some OpenAI-compatible servers use for the standard reasons. */
const ALIASES: Readonly<Record<string, FinishReason>> = {
  eos: 'stop',
  stop_sequence: 'stop',
  end_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  abort: 'error',
};

/**
 * @example readFinishReason('length') // 'length'
 * @example readFinishReason(null)     // null (still generating)
 * @example readFinishReason('weird')  // 'error': an unknown ending is not a clean stop
 */
export function readFinishReason(value: unknown): FinishReason | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && KNOWN.has(value)) return value as FinishReason;
  if (typeof value === 'string' && value in ALIASES) return ALIASES[value];
  return 'error';
}
