/** What Anthropic's answers and stream events share: the stop reason and the usage. */
import type { FinishReason, Usage } from '../../src/model/result.js';
import { isRecord } from '../../src/model/is-record.js';

/** Anthropic's `stop_reason` -> the neutral finish reason. An unknown one is named an error, never a clean stop. */
const STOP_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  // A server tool's long turn paused: the answer so far is complete, and may be sent back to go on.
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/**
 * @example readStopReason('tool_use') // 'tool_calls'
 * @example readStopReason(null)       // null (still generating)
 */
export function readStopReason(value: unknown): FinishReason | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' && STOP_REASONS[value]) || 'error';
}

/** The wire usage's counters, as the stream adds them up (`message_start`, then `message_delta`). */
export interface WireUsage {
  input: number;
  cacheRead?: number;
  cacheCreation?: number;
  output: number;
}

/** Reads the counters a usage object carries over `into` (a stream's `message_delta` repeats or updates them). */
export function readWireUsage(wire: unknown, into: WireUsage = { input: 0, output: 0 }): WireUsage {
  if (!isRecord(wire)) return into;
  const input = count(wire.input_tokens);
  const cacheRead = count(wire.cache_read_input_tokens);
  const cacheCreation = count(wire.cache_creation_input_tokens);
  const output = count(wire.output_tokens);
  if (input !== undefined) into.input = input;
  if (cacheRead !== undefined) into.cacheRead = cacheRead;
  if (cacheCreation !== undefined) into.cacheCreation = cacheCreation;
  if (output !== undefined) into.output = output;
  return into;
}

/**
 * Anthropic counts cached and cache-written prompt tokens apart from `input_tokens`;
 * the neutral prompt count holds them all.
 * @example toUsage({input: 5, cacheRead: 100, cacheCreation: 20, output: 7})
 * // {promptTokens: 125, completionTokens: 7, totalTokens: 132, cachedPromptTokens: 100, cacheWriteTokens: 20}
 */
export function toUsage(wire: WireUsage): Usage {
  const promptTokens = wire.input + (wire.cacheRead ?? 0) + (wire.cacheCreation ?? 0);
  const usage: Usage = { promptTokens, completionTokens: wire.output, totalTokens: promptTokens + wire.output };
  if (wire.cacheRead !== undefined) usage.cachedPromptTokens = wire.cacheRead;
  if (wire.cacheCreation !== undefined) usage.cacheWriteTokens = wire.cacheCreation;
  return usage;
}

/** Anthropic's `usage.service_tier` in the neutral names: its standard tier is the neutral `default`. */
export function readServiceTier(wire: unknown): string | undefined {
  if (!isRecord(wire) || typeof wire.service_tier !== 'string') return undefined;
  return wire.service_tier === 'standard' ? 'default' : wire.service_tier;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
