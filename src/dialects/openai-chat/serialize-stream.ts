/**
 * StreamEvents -> `chat.completion.chunk` objects, as OpenAI sends them: a role
 * chunk opens each choice, deltas follow, an empty delta carries the
 * `finish_reason`; with `stream_options.include_usage` every chunk has
 * `usage: null` and a last chunk with `choices: []` carries the usage.
 * Choices may interleave; each keeps its own state here.
 */
import { tooManyFunctionCalls } from '../../errors/catalogue.js';
import { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import type { StreamEvent, StreamEventOf } from '../../model/stream-event.js';
import { missingStart } from '../missing-start.js';
import { StreamTotals } from '../stream-totals.js';
import { chatErrorBody } from './error-body.js';
import { chatLogprobsBody, type ChatLogprobsBody } from './logprobs-body.js';
import { chatFinishReason } from './serialize-result.js';
import { responseId } from '../response-id.js';
import { characterCount } from '../../model/logprobs.js';

type Head = { id: string; object: 'chat.completion.chunk'; created: number; model: string; system_fingerprint?: string };

/** A custom tool's call streams as `custom: {name?, input}` (pieces of its free-text input). */
type ToolCallChunk =
  | { index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }
  | { index: number; id?: string; type?: 'custom'; custom: { name?: string; input: string } };

export type ChunkDelta = {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: ToolCallChunk[];
  function_call?: { name?: string; arguments: string };
  /** Fireworks `include_internal_content`. */
  internal_content?: { token_id: number | number[] };
  refusal?: string;
  annotations?: unknown[];
};

export type ChunkChoice = {
  index: number;
  delta: ChunkDelta;
  logprobs: ChatLogprobsBody;
  finish_reason: string | null;
  raw_output?: Record<string, unknown>;
  prompt_token_ids?: number[];
  token_ids?: number[];
};

interface ChoiceState {
  /** Characters of content sent so far (legacy `text_offset`). */
  offset: number;
  /** Tool call index -> which of id / name went out already (they go out once). */
  calls: Map<number, { id: boolean; name: boolean }>;
}

/**
 * @example for await (const chunk of serializeChatStream(events, request)) write(chunk)
 */
export async function* serializeChatStream(events: AsyncIterable<StreamEvent>, request: NeutralRequest): AsyncGenerator<Record<string, unknown>> {
  const includeUsage = request.stream?.includeUsage === true;
  const totals = new StreamTotals(request);
  const states = new Map<number, ChoiceState>();
  let head: Head | undefined;
  // Built field by field, not spread: this runs for every event of every stream.
  const chunk = (choice: ChunkChoice, extra?: Record<string, unknown>) => {
    const out: Record<string, unknown> = { id: head?.id, object: 'chat.completion.chunk', created: head?.created, model: head?.model };
    if (head?.system_fingerprint !== undefined) out.system_fingerprint = head.system_fingerprint;
    out.choices = [choice];
    if (includeUsage) out.usage = null;
    if (extra) Object.assign(out, extra);
    return out;
  };

  for await (const event of events) {
    if (event.type === 'response-start') {
      head = { id: responseId(event.id, 'chat'), object: 'chat.completion.chunk', created: event.created, model: event.model };
      if (event.systemFingerprint !== undefined) head.system_fingerprint = event.systemFingerprint;
      // One choice: its role chunk leaves now, as OpenAI's first chunk does, rather than wait for the next upstream event.
      if (request.choices === 1 && !states.has(0)) {
        states.set(0, { offset: 0, calls: new Map() });
        yield chunk({ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null });
      }
      continue;
    }
    if (totals.take(event)) continue;
    if (event.type === 'error' || !head) {
      yield chatErrorBody(event.type === 'error' ? event.error : missingStart());
      return;
    }
    let state = states.get(event.choice);
    if (!state) {
      state = { offset: 0, calls: new Map() };
      states.set(event.choice, state);
      yield chunk({ index: event.choice, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null });
    }
    if (event.type === 'choice-end') {
      // The refusal arrives joined; OpenAI streams it as a delta before the finish.
      if (event.refusal) yield chunk({ index: event.choice, delta: { refusal: event.refusal }, logprobs: null, finish_reason: null });
      const finish: ChunkChoice = { index: event.choice, delta: {}, logprobs: null, finish_reason: chatFinishReason(event.finishReason, request) };
      if (request.rawOutput && event.rawOutput) finish.raw_output = event.rawOutput;
      yield chunk(finish, totals.endChoice());
    } else if (event.type === 'tool-call-delta') {
      const delta = toolCallDelta(event, state, request);
      if (delta instanceof ProxyError) {
        yield chatErrorBody(delta);
        return;
      }
      yield chunk({ index: event.choice, delta, logprobs: null, finish_reason: null });
    } else {
      yield chunk(textChoice(event, state, request));
      if (event.type === 'text-delta') state.offset += characterCount(event.delta);
    }
  }
  const closing = totals.usageChunk(head, { openaiDetails: true });
  if (closing) yield closing;
}

function textChoice(event: StreamEventOf<'text-delta'> | StreamEventOf<'reasoning-delta'>, state: ChoiceState, request: NeutralRequest): ChunkChoice {
  const delta: ChunkDelta = event.type === 'text-delta' ? { content: event.delta } : { reasoning_content: event.delta };
  if (event.type === 'text-delta' && event.annotations) delta.annotations = event.annotations;
  const ids = event.tokenIds;
  if (request.stream?.tokenIds && ids) delta.internal_content = { token_id: ids.length === 1 ? ids[0] : ids };
  const choice: ChunkChoice = {
    index: event.choice,
    delta,
    logprobs: event.logprobs ? chatLogprobsBody(event.logprobs, request, state.offset) : null,
    finish_reason: null,
  };
  if (request.returnTokenIds && event.type === 'text-delta' && event.promptTokenIds) choice.prompt_token_ids = event.promptTokenIds;
  if (request.returnTokenIds && ids) choice.token_ids = ids;
  return choice;
}

/** id, type and name go out on a call's first delta only, as OpenAI streams them. */
function toolCallDelta(event: StreamEventOf<'tool-call-delta'>, state: ChoiceState, request: NeutralRequest): ChunkDelta | ProxyError {
  if (request.legacyFunctions && state.calls.size > 0 && !state.calls.has(event.index)) return tooManyFunctionCalls(state.calls.size + 1);
  const sent = state.calls.get(event.index) ?? { id: false, name: false };
  state.calls.set(event.index, sent);
  const named = event.name !== undefined && !sent.name;
  if (named) sent.name = true;
  const fn = named ? { name: event.name, arguments: event.argumentsDelta } : { arguments: event.argumentsDelta };
  if (request.legacyFunctions) return { function_call: fn };
  const first = event.id !== undefined && !sent.id;
  if (first) sent.id = true;
  if (event.custom) {
    const custom = named ? { name: event.name, input: event.argumentsDelta } : { input: event.argumentsDelta };
    return { tool_calls: [first ? { index: event.index, id: event.id, type: 'custom', custom } : { index: event.index, custom }] };
  }
  const call: ToolCallChunk = first ? { index: event.index, id: event.id, type: 'function', function: fn } : { index: event.index, function: fn };
  return { tool_calls: [call] };
}
