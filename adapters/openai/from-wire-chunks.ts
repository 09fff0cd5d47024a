/**
 * Decoded SSE messages of an OpenAI-compatible stream -> neutral StreamEvents.
 * Reads chat chunks (`choices[].delta`) and completions chunks (`choices[].text`)
 * alike. Usage and timing metrics are held and sent once, after the last choice
 * ends: OpenAI and Fireworks send usage in a trailing chunk with `choices: []`,
 * llama.cpp on each choice's finishing chunk (one per choice with `n`, which
 * are then added up; see usageOf).
 */
import { upstreamBadResponse, upstreamStreamTruncated } from '../../src/errors/catalogue.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { addUsage, type PerfMetrics, type Usage } from '../../src/model/result.js';
import type { StreamEvent, StreamEventOf } from '../../src/model/stream-event.js';
import type { SseMessage } from '../../src/streaming/decode-sse.js';
import type { ChunkReader } from '../chunk-reader.js';
import { isRecord } from '../../src/model/is-record.js';
import { mapErrorFrame } from '../map-upstream-error.js';
import { argumentsText } from './from-wire-result.js';
import { readFinishReason } from './read-finish-reason.js';
import { readWireLogprobs } from './read-wire-logprobs.js';
import { readWireUsage } from './read-wire-usage.js';
import { EchoSplitter, echoPlanOf, type OutputPiece } from './split-echo.js';
import { TextChunkTemplate } from './text-chunk-template.js';
import { openAIExtras, type ChoiceExtras, type WireExtras } from './wire-extras.js';

interface ChoiceState {
  finished: boolean;
  sentPromptIds: boolean;
  refusal: string;
  echo?: EchoSplitter;
}

/**
 * One synchronous step per SSE message (the remote adapter's loop is the only async one).
 *
 * @example
 * const reader = new OpenAIChunkReader(request);
 * for (const message of messages) reader.push(message, events);
 * reader.finish(events); // response-start, text-delta..., choice-end, usage
 */
export class OpenAIChunkReader implements ChunkReader {
  ended = false;
  private readonly choices = new Map<number, ChoiceState>();
  private readonly usages = new Map<number, Usage>();
  private total?: Usage;
  private perf?: PerfMetrics;
  private started = false;
  private readonly template = new TextChunkTemplate();

  constructor(
    private readonly request: NeutralRequest,
    private readonly extras: WireExtras = openAIExtras,
  ) {}

  push(message: SseMessage, out: StreamEvent[]): void {
    if (this.ended) return;
    const { request, extras, template } = this;
    const text = message.event === undefined ? template.textOf(message.data) : undefined;
    if (text !== undefined) {
      out.push({ type: 'text-delta', choice: template.choice, delta: text });
      return;
    }
    const chunk = parseChunk(message);
    if (chunk instanceof ProxyError) return this.fail(chunk, out);
    if (!this.started) {
      this.started = true;
      out.push(responseStart(chunk, request));
    }
    const wireChoices = Array.isArray(chunk.choices) ? chunk.choices.filter(isRecord) : [];
    const from = out.length; // this chunk's events start here
    try {
      for (const wire of wireChoices) {
        const index = typeof wire.index === 'number' ? wire.index : 0;
        choiceEvents(wire, index, this.stateOf(index), extras.readChoice?.(wire, chunk) ?? {}, request, out);
      }
    } catch (error) {
      if (!(error instanceof ProxyError)) throw error;
      return this.fail(error, out);
    }
    const usage = readWireUsage(chunk.usage);
    if (usage && wireChoices.length === 0) this.total = usage;
    else if (usage) this.usages.set(typeof wireChoices[0].index === 'number' ? wireChoices[0].index : 0, usage);
    const chunkPerf = extras.readPerf?.(chunk);
    if (chunkPerf) this.perf = chunkPerf;
    // A refusal piece is kept without an event of its own: such a chunk is no template.
    const plain = !usage && !chunkPerf && wireChoices.length === 1 && !hasRefusal(wireChoices[0]) ? plainTextDelta(out, from) : undefined;
    const echo = plain && this.choices.get(plain.choice)?.echo;
    if (plain && (!echo || echo.done)) template.learn(message.data, plain.choice, plain.delta, readText);
  }

  /** The upstream stream is over: a truncation error, or the usage and perf metrics held until now. */
  finish(out: StreamEvent[]): void {
    if (this.ended) return;
    this.ended = true;
    const unfinished = [...this.choices].filter(([, state]) => !state.finished).map(([index]) => index);
    if (!this.started || unfinished.length > 0) {
      const what = this.started ? `before choice ${unfinished.join(', ')} finished` : 'without sending any chunk';
      out.push({ type: 'error', error: upstreamStreamTruncated(what) });
      return;
    }
    const usage = this.total ?? usageOf(this.usages);
    if (usage) out.push({ type: 'usage', usage });
    if (this.perf) out.push({ type: 'perf', perf: this.perf });
  }

  private fail(error: ProxyError, out: StreamEvent[]): void {
    out.push({ type: 'error', error });
    this.ended = true;
  }

  private stateOf(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) {
      const plan = echoPlanOf(this.request, index);
      state = { finished: false, sentPromptIds: false, refusal: '', ...(plan ? { echo: new EchoSplitter(plan) } : {}) };
      this.choices.set(index, state);
    }
    return state;
  }
}

/** The one text delta a chunk made (its events are `events` from `from` on), with nothing else on it: later chunks shaped as it may be read by the template. */
function plainTextDelta(events: readonly StreamEvent[], from: number): StreamEventOf<'text-delta'> | undefined {
  const event = events[from];
  return events.length === from + 1 && event.type === 'text-delta' && event.delta !== '' && Object.keys(event).length === 3
    ? event
    : undefined;
}

function hasRefusal(wire: Record<string, unknown>): boolean {
  return isRecord(wire.delta) && typeof wire.delta.refusal === 'string';
}

/** The text the reader takes from a chunk's first choice (choiceEvents). */
function readText(chunk: unknown): unknown {
  const wire = isRecord(chunk) && Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!isRecord(wire)) return undefined;
  return isRecord(wire.delta) ? wire.delta.content : wire.text;
}

/** One wire choice of a chunk -> its events, appended to `out`. */
function choiceEvents(
  wire: Record<string, unknown>,
  index: number,
  state: ChoiceState,
  extra: ChoiceExtras,
  request: NeutralRequest,
  out: StreamEvent[],
): void {
  const delta = isRecord(wire.delta) ? wire.delta : undefined;
  const text = delta ? (typeof delta.content === 'string' ? delta.content : '') : typeof wire.text === 'string' ? wire.text : '';
  const logprobs = readWireLogprobs(wire.logprobs);
  const reasoning = delta ? (nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning)) : undefined;

  // Logprobs and token ids of a reasoning-only delta belong to the reasoning tokens.
  const reasoningOnly = reasoning !== undefined && text === '';
  if (reasoning !== undefined) {
    const event: StreamEventOf<'reasoning-delta'> = { type: 'reasoning-delta', choice: index, delta: reasoning };
    if (reasoningOnly && request.logprobs && logprobs?.length) event.logprobs = logprobs;
    if (reasoningOnly && extra.tokenIds?.length) event.tokenIds = extra.tokenIds;
    out.push(event);
  }

  const pieces: { piece: OutputPiece; echo: boolean }[] = [];
  const hasText = text !== '' || (logprobs?.length ?? 0) > 0;
  if (hasText && state.echo && !state.echo.done) {
    const { echo, rest } = state.echo.take(text, logprobs);
    if (echo) pieces.push({ piece: echo, echo: true });
    if (rest) pieces.push({ piece: rest, echo: false });
  } else if (hasText && !reasoningOnly) {
    pieces.push({ piece: { text, ...(logprobs ? { logprobs } : {}) }, echo: false });
  }
  const tokenIds = reasoningOnly ? undefined : extra.tokenIds;
  // Token ids (or the prompt's) with no text still need a delta to ride on.
  if (pieces.length === 0 && (tokenIds?.length || (extra.promptTokenIds && !state.sentPromptIds)))
    pieces.push({ piece: { text: '' }, echo: false });
  for (const [i, { piece, echo }] of pieces.entries()) {
    out.push(
      textDelta({
        index,
        piece,
        echo,
        request,
        state,
        tokenIds: i === pieces.length - 1 ? tokenIds : undefined,
        promptTokenIds: extra.promptTokenIds,
      }),
    );
  }

  if (delta && Array.isArray(delta.tool_calls)) {
    for (const [position, call] of delta.tool_calls.filter(isRecord).entries()) out.push(toolCallDelta(call, index, position));
  }
  if (delta && typeof delta.refusal === 'string') state.refusal += delta.refusal;
  if (delta && Array.isArray(delta.annotations) && delta.annotations.length > 0) {
    out.push({ type: 'text-delta', choice: index, delta: '', annotations: delta.annotations });
  }

  const finishReason = readFinishReason(wire.finish_reason);
  if (finishReason) {
    state.finished = true;
    const end: StreamEventOf<'choice-end'> = { type: 'choice-end', choice: index, finishReason };
    if (state.refusal) end.refusal = state.refusal;
    if (extra.vendor) end.vendor = extra.vendor;
    out.push(end);
  }
}

interface TextDeltaInput {
  index: number;
  piece: OutputPiece;
  echo: boolean;
  request: NeutralRequest;
  state: ChoiceState;
  tokenIds?: number[];
  promptTokenIds?: number[];
}

function textDelta({ index, piece, echo, request, state, tokenIds, promptTokenIds }: TextDeltaInput): StreamEventOf<'text-delta'> {
  const event: StreamEventOf<'text-delta'> = { type: 'text-delta', choice: index, delta: piece.text };
  if (echo) event.echo = true;
  // Logprobs the caller did not ask for were ours (asked to find an echo's end).
  if (request.logprobs && piece.logprobs) event.logprobs = piece.logprobs;
  if (tokenIds?.length) event.tokenIds = tokenIds;
  if (promptTokenIds && !state.sentPromptIds) {
    event.promptTokenIds = promptTokenIds;
    state.sentPromptIds = true;
  }
  return event;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function toolCallDelta(call: Record<string, unknown>, choice: number, position: number): StreamEventOf<'tool-call-delta'> {
  // A custom tool's call (OpenAI) streams its free-text `custom.input` in pieces.
  const custom = isRecord(call.custom) ? call.custom : undefined;
  const fn = custom ?? (isRecord(call.function) ? call.function : {});
  const piece = custom ? (typeof custom.input === 'string' ? custom.input : '') : argumentsText(fn.arguments);
  const event: StreamEventOf<'tool-call-delta'> = {
    type: 'tool-call-delta',
    choice,
    index: typeof call.index === 'number' ? call.index : position,
    argumentsDelta: piece,
  };
  if (typeof call.id === 'string') event.id = call.id;
  if (typeof fn.name === 'string') event.name = fn.name;
  if (custom || call.type === 'custom') event.custom = true;
  return event;
}

function responseStart(chunk: Record<string, unknown>, request: NeutralRequest): StreamEventOf<'response-start'> {
  const event: StreamEventOf<'response-start'> = {
    type: 'response-start',
    id: typeof chunk.id === 'string' ? chunk.id : '',
    model: typeof chunk.model === 'string' ? chunk.model : request.model,
    created: typeof chunk.created === 'number' ? chunk.created : Math.floor(Date.now() / 1000),
  };
  if (typeof chunk.system_fingerprint === 'string') event.systemFingerprint = chunk.system_fingerprint;
  return event;
}

/** A chunk object, or the ProxyError the message stands for (an error frame, or data that is not a JSON object). */
function parseChunk(message: SseMessage): Record<string, unknown> | ProxyError {
  let chunk: unknown;
  try {
    chunk = JSON.parse(message.data);
  } catch {
    if (message.event === 'error') return mapErrorFrame({ error: { message: message.data } });
    return upstreamBadResponse('The upstream stream sent a chunk that is not JSON.');
  }
  if (!isRecord(chunk)) return upstreamBadResponse('The upstream stream sent a chunk that is not a JSON object.');
  if (message.event === 'error') return mapErrorFrame(isRecord(chunk.error) ? chunk : { error: chunk });
  if (chunk.error !== undefined && chunk.error !== null) return mapErrorFrame(chunk);
  return chunk;
}

/**
 * Per-choice usages (llama.cpp with `n`, or a prompt batch) are added up: each
 * choice ran in its own slot and processed its own prompt.
 */
function usageOf(usages: Map<number, Usage>): Usage | undefined {
  let sum: Usage | undefined;
  for (const usage of usages.values()) sum = addUsage(sum, usage);
  return sum;
}
