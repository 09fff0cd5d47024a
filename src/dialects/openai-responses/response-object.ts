/**
 * The Responses API's `Response` object and its output items, shared by the
 * plain answer and the stream (whose first and last events carry the object).
 * A Response's id is the proxy's own, random (newResponseId), never the
 * backend's: a stored response is found by it, so it must be unguessable and
 * unique whatever the backend sends. Its items are named after the same base.
 */
import { randomBytes } from 'node:crypto';
import type { ProxyError } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { toChatLogprobs, type ChatLogprobEntry, type TokenLogprob } from '../../model/logprobs.js';
import type { NeutralRequest, ToolCall } from '../../model/request.js';
import type { FinishReason, Usage } from '../../model/result.js';
import { ToolNames } from './tool-names.js';

export type OutputItem = Record<string, unknown> & { type: string; id: string };

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

/**
 * A fresh Response id: `resp_` and 128 random bits in hex.
 * @example newResponseId() // 'resp_9f86d081884c7d659a2feaa0c55ad015'
 */
export function newResponseId(): string {
  return `resp_${randomBytes(16).toString('hex')}`;
}

export const itemIds = {
  message: (base: string) => `msg_${base}`,
  reasoning: (base: string) => `rs_${base}`,
  call: (base: string, index: number) => `fc_${base}_${index}`,
};

/** A finish reason -> the Response's status and why it is incomplete. */
export function statusOf(reason: FinishReason | null): { status: ResponseStatus; incomplete_details: { reason: string } | null } {
  if (reason === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason === 'content_filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  if (reason === 'error') return { status: 'failed', incomplete_details: null };
  return { status: 'completed', incomplete_details: null };
}

/**
 * The object with everything but its output and usage: the caller's parameters
 * repeated as sent, OpenAI's defaults where the caller sent none. Its id is the
 * one the pipeline gave the request (`echoedParams.id`, response-state.ts), or
 * a fresh one.
 */
export function responseHead(request: NeutralRequest, at: { model: string; created: number }): Record<string, unknown> {
  const params = request.echoedParams ?? {};
  const text = (params.text ?? {}) as Record<string, unknown>;
  const reasoning = (params.reasoning ?? {}) as Record<string, unknown>;
  return {
    id: typeof params.id === 'string' ? params.id : newResponseId(),
    object: 'response',
    created_at: at.created,
    status: 'in_progress',
    completed_at: null,
    background: params.background === true,
    error: null,
    incomplete_details: null,
    instructions: params.instructions ?? null,
    max_output_tokens: params.max_output_tokens ?? null,
    max_tool_calls: params.max_tool_calls ?? null,
    model: at.model,
    output: [],
    parallel_tool_calls: params.parallel_tool_calls ?? true,
    previous_response_id: params.previous_response_id ?? null,
    prompt_cache_key: params.prompt_cache_key ?? null,
    reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? reasoning.generate_summary ?? null },
    safety_identifier: params.safety_identifier ?? null,
    service_tier: params.service_tier ?? 'auto',
    store: params.store === true,
    temperature: params.temperature ?? null,
    text: { format: text.format ?? { type: 'text' }, verbosity: text.verbosity ?? 'medium' },
    tool_choice: params.tool_choice ?? 'auto',
    tools: echoedTools(params.tools),
    top_logprobs: params.top_logprobs ?? 0,
    top_p: params.top_p ?? null,
    truncation: params.truncation ?? 'disabled',
    usage: null,
    user: params.user ?? null,
    metadata: params.metadata ?? {},
  };
}

/**
 * The caller's tools as the Response repeats them. The spec's `FunctionTool`
 * requires `parameters` and `strict` (each may be null) though a request may
 * leave them out: null says the caller set none (and the proxy enforced no
 * strictness), where a missing key fails strict validators of the Response.
 * @example echoedTools([{ type: 'function', name: 'f' }]) // [{ type: 'function', name: 'f', parameters: null, strict: null }]
 */
export function echoedTools(tools: unknown): unknown[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: unknown) =>
    isRecord(tool) && tool.type === 'function' ? { ...tool, parameters: tool.parameters ?? null, strict: tool.strict ?? null } : tool,
  );
}

/** Neutral usage -> `ResponseUsage` (the spec requires both details objects; a count the backend did not give is 0). */
export function usageBody(usage: Usage | undefined): Record<string, unknown> | null {
  if (!usage) return null;
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedPromptTokens ?? 0, cache_write_tokens: 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens,
  };
}

/** The caller's error in the Response (`response.failed`), with one of the spec's `ResponseError` codes. */
export function errorBody(error: ProxyError): { code: string; message: string } {
  return { code: error.status === 429 ? 'rate_limit_exceeded' : 'server_error', message: error.message };
}

export function reasoningItem(id: string, text: string): OutputItem {
  return { id, type: 'reasoning', summary: text === '' ? [] : [{ type: 'summary_text', text }] };
}

export function outputTextPart(text: string, logprobs: ChatLogprobEntry[] = []): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [], logprobs };
}

export function messageItem(id: string, status: ResponseStatus, content: Record<string, unknown>[]): OutputItem {
  return { id, type: 'message', status, role: 'assistant', content };
}

/**
 * A function call, or a custom tool's call with its free-text input, under the name the caller gave
 * the tool: a flattened namespaced name is restored to its namespace and name (tool-names.ts).
 */
export function callItem(
  id: string,
  call: Pick<ToolCall, 'id' | 'name' | 'arguments' | 'custom'>,
  status: ResponseStatus,
  names: ToolNames,
): OutputItem {
  const { namespace, name } = names.restore(call.name);
  const named = namespace === undefined ? { name } : { namespace, name };
  if (call.custom) return { id, type: 'custom_tool_call', status, call_id: call.id, ...named, input: call.arguments };
  return { id, type: 'function_call', status, call_id: call.id, ...named, arguments: call.arguments };
}

/** The names of the request's tools, from the tools the Response repeats (the parse built them from the same array). */
export function requestToolNames(request: NeutralRequest): ToolNames {
  return ToolNames.of(request.echoedParams?.tools);
}

/** Neutral logprobs -> the `output_text` part's: `{token, logprob, bytes, top_logprobs}`; [] unless the caller asked. */
export function logprobsBody(entries: readonly TokenLogprob[] | undefined, request: NeutralRequest): ChatLogprobEntry[] {
  if (!request.logprobs || !entries) return [];
  return toChatLogprobs(entries, request.logprobs.top, { tokenIds: false });
}
