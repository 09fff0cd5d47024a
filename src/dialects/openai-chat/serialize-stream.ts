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
import type { SerializedEvent, StreamEventOf } from '../../model/stream-event.js';
import type { StreamSerializer } from '../stream-serializer.js';
import { missingStart } from '../../errors/catalogue.js';
import { StreamTotals } from '../stream-totals.js';
import { chatErrorBody } from './error-body.js';
import { chatLogprobsBody, type ChatLogprobsBody } from './logprobs-body.js';
import { chatFinishReason } from './serialize-result.js';
import { responseId } from '../response-id.js';
import { characterCount } from '../../model/logprobs.js';
import { rawOutputFor } from '../raw-output.js';

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

type Chunk = Record<string, unknown>;

/** One synchronous step per event (this runs for every event of every stream). */
export class ChatStreamSerializer implements StreamSerializer {
  ended = false;
  private readonly includeUsage: boolean;
  private readonly totals: StreamTotals;
  private readonly states = new Map<number, ChoiceState>();
  private head?: Head;

  constructor(private readonly request: NeutralRequest) {
    this.includeUsage = request.stream?.includeUsage === true;
    this.totals = new StreamTotals(request);
  }

  push(event: SerializedEvent, out: Chunk[]): void {
    // A reasoning signature has no place in this dialect's chunks.
    if (this.ended || event.type === 'reasoning-signature') return;
    const { request, states } = this;
    if (event.type === 'response-start') {
      const head: Head = { id: responseId(event.id, 'chat'), object: 'chat.completion.chunk', created: event.created, model: event.model };
      if (event.systemFingerprint !== undefined) head.system_fingerprint = event.systemFingerprint;
      this.head = head;
      // One choice: its role chunk leaves now, as OpenAI's first chunk does, rather than wait for the next upstream event.
      if (request.choices === 1 && !states.has(0)) {
        states.set(0, { offset: 0, calls: new Map() });
        out.push(this.chunk({ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }));
      }
      return;
    }
    if (this.totals.take(event)) return;
    if (event.type === 'error' || !this.head) return this.fail(event.type === 'error' ? event.error : missingStart(), out);
    let state = states.get(event.choice);
    if (!state) {
      state = { offset: 0, calls: new Map() };
      states.set(event.choice, state);
      out.push(this.chunk({ index: event.choice, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }));
    }
    if (event.type === 'choice-end') {
      // The refusal arrives joined; OpenAI streams it as a delta before the finish.
      if (event.refusal)
        out.push(this.chunk({ index: event.choice, delta: { refusal: event.refusal }, logprobs: null, finish_reason: null }));
      const finish: ChunkChoice = {
        index: event.choice,
        delta: {},
        logprobs: null,
        finish_reason: chatFinishReason(event.finishReason, request),
      };
      const rawOutput = rawOutputFor(request, event);
      if (rawOutput) finish.raw_output = rawOutput;
      out.push(this.chunk(finish, this.totals.endChoice()));
    } else if (event.type === 'tool-call-delta') {
      const delta = toolCallDelta(event, state, request);
      if (delta instanceof ProxyError) return this.fail(delta, out);
      out.push(this.chunk({ index: event.choice, delta, logprobs: null, finish_reason: null }));
    } else {
      out.push(this.chunk(textChoice(event, state, request)));
      if (event.type === 'text-delta') state.offset += characterCount(event.delta);
    }
  }

  finish(out: Chunk[]): void {
    if (this.ended) return;
    const closing = this.totals.usageChunk(this.head, { openaiDetails: true });
    if (closing) out.push(closing);
  }

  private fail(error: ProxyError, out: Chunk[]): void {
    out.push(chatErrorBody(error));
    this.ended = true;
  }

  // Built field by field, not spread.
  private chunk(choice: ChunkChoice, extra?: Record<string, unknown>): Chunk {
    const { head } = this;
    const out: Chunk = { id: head?.id, object: 'chat.completion.chunk', created: head?.created, model: head?.model };
    if (head?.system_fingerprint !== undefined) out.system_fingerprint = head.system_fingerprint;
    out.choices = [choice];
    if (this.includeUsage) out.usage = null;
    if (extra) Object.assign(out, extra);
    return out;
  }
}

function textChoice(
  event: StreamEventOf<'text-delta'> | StreamEventOf<'reasoning-delta'>,
  state: ChoiceState,
  request: NeutralRequest,
): ChunkChoice {
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
  const call: ToolCallChunk = first
    ? { index: event.index, id: event.id, type: 'function', function: fn }
    : { index: event.index, function: fn };
  return { tool_calls: [call] };
}
