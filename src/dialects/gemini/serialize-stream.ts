/**
 * StreamEvents -> Gemini's stream: each chunk a whole GenerateContentResponse. Text and (with
 * includeThoughts) thought text go as they arrive; a function call goes whole once its arguments
 * are in (Google never streams a call in pieces), the sealed thoughtSignature on the first; the last
 * chunk carries each candidate's finishReason and the usage. A failure is a final `{error}` chunk,
 * which @google/genai raises as an ApiError.
 */
import { DEFAULT_LIMITS } from '../../config/settings.js';
import { missingStart } from '../../errors/catalogue.js';
import type { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type FinishReason, type Usage } from '../../model/result.js';
import type { SerializedEvent, StreamEventOf } from '../../model/stream-event.js';
import type { DialectContext } from '../dialect.js';
import type { StreamSerializer } from '../stream-serializer.js';
import { geminiErrorBody } from './error-body.js';
import {
  callerModel,
  finishReasonOf,
  functionCallPart,
  includesThoughts,
  logprobsResultOf,
  malformedMessage,
  MALFORMED_FUNCTION_CALL,
  usageMetadataOf,
} from './response-body.js';
import { sealThoughtSignature } from './thought-signature.js';

type Chunk = Record<string, unknown>;

interface PendingCall {
  id?: string;
  name: string;
  arguments: string;
}

/** One candidate's state: what must wait (calls, the signature) and how it ended. */
interface CandidateState {
  /** The reasoning to seal into thoughtSignature, while it fits `reasoningRoom`; past it, none (the signature goes without its text). */
  reasoning: string;
  reasoningBytes: number;
  signature?: string;
  redacted: string[];
  calls: Map<number, PendingCall>;
  /** The signature went out with a call already. */
  signed: boolean;
  finishReason?: string;
  finishMessage?: string;
}

export class GeminiStreamSerializer implements StreamSerializer<'anthropic'> {
  /** An Anthropic backend's redacted reasoning (vendor-data.ts): sealed into the thoughtSignature with the reasoning. */
  readonly vendors = ['anthropic'] as const;
  ended = false;
  private started = false;
  private id = '';
  private model = '';
  private usage?: Usage;
  private readonly candidates = new Map<number, CandidateState>();
  private readonly thoughts: boolean;
  /** How much reasoning a candidate keeps to seal: none without a sealer, else `limits.repeatedOutputBytes`, as the Responses API's. */
  private readonly reasoningRoom: number;

  constructor(
    private readonly request: NeutralRequest,
    private readonly context?: DialectContext,
  ) {
    this.thoughts = includesThoughts(request);
    this.reasoningRoom = context?.sealer ? (context.limits ?? DEFAULT_LIMITS).repeatedOutputBytes : 0;
  }

  push(event: SerializedEvent<'anthropic'>, out: Chunk[]): void {
    if (this.ended) return;
    if (event.type === 'usage') this.usage = addUsage(this.usage, event.usage);
    else if (event.type === 'perf') return;
    else if (event.type === 'error') this.fail(event.error, out);
    else if (event.type === 'response-start') this.start(event);
    else if (!this.started) this.fail(missingStart(), out);
    else if (event.type === 'text-delta') this.text(event, out);
    else if (event.type === 'reasoning-delta') this.reasoning(event.choice, event.delta, out);
    else if (event.type === 'reasoning-signature') this.candidate(event.choice).signature = event.signature;
    else if (event.type === 'vendor') this.candidate(event.choice).redacted.push(event.data.redactedReasoning);
    else if (event.type === 'tool-call-delta') this.toolCall(event);
    else this.end(event.choice, event.finishReason, event.refusal, out);
  }

  /** The last chunk: every candidate's finish (and what it still held), and the usage. */
  finish(out: Chunk[]): void {
    const candidates: Chunk[] = [];
    for (const [index, state] of this.candidates) {
      const parts = this.held(index, state);
      // Member by member in Google's order (spreads of optional members are copies by the runtime).
      const candidate: Chunk = {};
      if (parts.length > 0) candidate.content = { parts, role: 'model' };
      candidate.finishReason = state.finishReason ?? 'STOP';
      if (state.finishMessage) candidate.finishMessage = state.finishMessage;
      candidate.index = index;
      candidates.push(candidate);
    }
    const usageMetadata = usageMetadataOf(this.usage);
    out.push(this.chunk(candidates.length > 0 ? candidates : [{ finishReason: 'STOP', index: 0 }], usageMetadata));
  }

  private start({ id, model }: StreamEventOf<'response-start'>): void {
    if (this.started) return;
    this.started = true;
    this.id = id;
    this.model = callerModel(this.request, model);
  }

  private text(event: StreamEventOf<'text-delta'>, out: Chunk[]): void {
    this.candidate(event.choice);
    if (event.delta === '' && !event.logprobs?.length) return;
    const candidate: Chunk = { content: { parts: [{ text: event.delta }], role: 'model' }, index: event.choice };
    if (event.logprobs?.length) candidate.logprobsResult = logprobsResultOf(event.logprobs);
    out.push(this.chunk([candidate]));
  }

  private reasoning(choice: number, delta: string, out: Chunk[]): void {
    const state = this.candidate(choice);
    state.reasoningBytes += Buffer.byteLength(delta);
    state.reasoning = state.reasoningBytes <= this.reasoningRoom ? state.reasoning + delta : '';
    if (this.thoughts && delta !== '')
      out.push(this.chunk([{ content: { parts: [{ text: delta, thought: true }], role: 'model' }, index: choice }]));
  }

  private toolCall(event: StreamEventOf<'tool-call-delta'>): void {
    const calls = this.candidate(event.choice).calls;
    const call = calls.get(event.index) ?? { name: '', arguments: '' };
    if (event.id !== undefined) call.id = event.id;
    if (event.name !== undefined) call.name = event.name;
    call.arguments += event.argumentsDelta;
    calls.set(event.index, call);
  }

  /** A candidate's end: its calls go now, in one chunk; the finish reason waits for the last chunk and the usage. */
  private end(choice: number, reason: FinishReason, refusal: string | undefined, out: Chunk[]): void {
    const state = this.candidate(choice);
    if (refusal) out.push(this.chunk([{ content: { parts: [{ text: refusal }], role: 'model' }, index: choice }]));
    const calls = this.callParts(choice, state);
    if (calls.length > 0) out.push(this.chunk([{ content: { parts: calls, role: 'model' }, index: choice }]));
    state.finishReason ??= finishReasonOf(reason);
  }

  /** What a candidate still holds at the end: its calls, and a signature no call carried. */
  private held(choice: number, state: CandidateState): Chunk[] {
    const parts = this.callParts(choice, state);
    const signature = state.signed ? undefined : this.seal(state);
    if (signature) parts.push({ text: '', thoughtSignature: signature });
    return parts;
  }

  private callParts(choice: number, state: CandidateState): Chunk[] {
    const parts: Chunk[] = [];
    for (const [index, call] of state.calls) {
      const part = functionCallPart({ id: call.id ?? `call_${choice}_${index}`, name: call.name, arguments: call.arguments });
      if (!part) {
        state.finishReason = MALFORMED_FUNCTION_CALL;
        state.finishMessage ??= malformedMessage(call);
        continue;
      }
      if (!state.signed) {
        const signature = this.seal(state);
        if (signature) {
          part.thoughtSignature = signature;
          state.signed = true;
        }
      }
      parts.push(part);
    }
    state.calls.clear();
    return parts;
  }

  private seal(state: CandidateState): string | undefined {
    // Nothing signed, nothing to seal (sealThoughtSignature's own test), without building its argument at every stream's end.
    if (state.signature === undefined && state.redacted.length === 0) return undefined;
    return sealThoughtSignature(
      {
        ...(state.reasoning !== '' ? { text: state.reasoning } : {}),
        ...(state.signature !== undefined ? { signature: state.signature } : {}),
        ...(state.redacted.length > 0 ? { redacted: state.redacted } : {}),
      },
      this.context,
    );
  }

  private candidate(choice: number): CandidateState {
    let state = this.candidates.get(choice);
    if (!state) {
      state = { reasoning: '', reasoningBytes: 0, redacted: [], calls: new Map(), signed: false };
      this.candidates.set(choice, state);
    }
    return state;
  }

  // Two literals, not a spread of an optional member: a spread is a copy by the runtime, on every chunk of every stream.
  private chunk(candidates: Chunk[], usageMetadata?: Record<string, number>): Chunk {
    const { model: modelVersion, id: responseId } = this;
    return usageMetadata ? { candidates, usageMetadata, modelVersion, responseId } : { candidates, modelVersion, responseId };
  }

  private fail(error: ProxyError, out: Chunk[]): void {
    out.push(geminiErrorBody(error));
    this.ended = true;
  }
}
