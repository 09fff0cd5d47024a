/**
 * The parts of Anthropic's `message` object a whole answer and a stream share:
 * ids (`msg_`, `toolu_`), the model the caller named, the stop reason and the
 * usage in Anthropic's split (input tokens without the cached ones).
 */
import type { NeutralRequest } from '../../model/request.js';
import type { FinishReason, Usage } from '../../model/result.js';
import { idBase } from '../response-id.js';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export interface UsageBody {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

export function messageId(id: string): string {
  const base = idBase(id);
  return base.startsWith('msg_') ? base : `msg_${base}`;
}

/** A backend's tool call id as Anthropic's clients expect one; the same call keeps the same id both ways. */
export function toolUseId(id: string): string {
  return id.startsWith('toolu_') ? id : `toolu_${id.replace(/^(call_|fc_)/, '')}`;
}

/** The model as the caller named it (the backend may call it otherwise). */
export function callerModel(request: NeutralRequest, backendModel: string): string {
  const model = request.echoedParams?.model;
  return typeof model === 'string' ? model : backendModel;
}

export function stopReasonOf(finish: FinishReason | null, stopSequence: string | undefined): StopReason {
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return stopSequence === undefined ? 'end_turn' : 'stop_sequence';
  }
}

/** Anthropic counts input without what was read from or written to its cache; the neutral prompt count has them all. */
export function usageBodyOf(usage: Usage | undefined): UsageBody {
  const cached = usage?.cachedPromptTokens ?? 0;
  const written = usage?.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.promptTokens ?? 0) - cached - written),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: usage?.completionTokens ?? 0,
  };
}

/** A tool call's JSON arguments as the object `input` is; anything else is said in a warning and sent as `{}`. */
export function toolInput(args: string, warnings: string[], name: string): Record<string, unknown> {
  try {
    const input: unknown = JSON.parse(args === '' ? '{}' : args);
    if (input && typeof input === 'object' && !Array.isArray(input)) return input as Record<string, unknown>;
  } catch {
    // not JSON: said below
  }
  warnings.push(`content: the model's arguments for the tool '${name}' are not a JSON object; its input was sent as {}`);
  return {};
}
