/**
 * Gemini's `streamGenerateContent?alt=sse` -> neutral StreamEvents. Each `data:`
 * line is a whole GenerateContentResponse holding the next parts of each candidate:
 *  - the first one: response-start (`responseId`, `modelVersion`);
 *  - text parts -> text-delta (with the chunk's logprobs), thought parts ->
 *    reasoning-delta, a functionCall part (it comes whole) -> one tool-call-delta
 *    with its id (its thoughtSignature inside: thought-signature.ts), name and arguments;
 *  - a `finishReason` -> choice-end; a blocked prompt -> choice-end `content_filter`;
 *  - `usageMetadata` (each chunk says the counts so far) -> one usage event at the end;
 *  - `{error}`: an error event, which ends the stream.
 */
import { upstreamBadResponse, upstreamStreamTruncated } from '../../src/errors/catalogue.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { Usage } from '../../src/model/result.js';
import type { StreamEvent, StreamEventOf } from '../../src/model/stream-event.js';
import type { SseMessage } from '../../src/streaming/decode-sse.js';
import type { ChunkReader } from '../chunk-reader.js';
import { callIds } from './call-ids.js';
import { mapErrorBody } from './gemini-errors.js';
import { readBlockReason, readFinishReason, readLogprobs, readParts, toUsage } from './read-wire.js';

/** One candidate as it streams: its calls so far, whether it has finished. */
interface Candidate {
  calls: number;
  finished: boolean;
}

/**
 * @example
 * const reader = new GeminiChunkReader(request);
 * for (const message of messages) reader.push(message, events);
 * reader.finish(events); // response-start, text-delta..., choice-end, usage
 */
export class GeminiChunkReader implements ChunkReader {
  ended = false;
  private started = false;
  private ids: (n: number) => string = callIds(undefined);
  private readonly candidates = new Map<number, Candidate>();
  private usage: Usage | undefined;

  constructor(private readonly request: NeutralRequest) {}

  push(message: SseMessage, out: StreamEvent[]): void {
    if (this.ended) return;
    const chunk = parseChunk(message);
    if (chunk instanceof ProxyError) return this.fail(chunk, out);
    if (isRecord(chunk.error)) return this.fail(mapErrorBody(chunk, this.request), out);
    if (!this.started) this.start(chunk, out);
    this.usage = toUsage(chunk.usageMetadata) ?? this.usage;
    const blocked = readBlockReason(chunk);
    if (blocked !== undefined) {
      this.request.warnings.push(`Gemini blocked the prompt: promptFeedback.blockReason ${blocked}`);
      this.candidates.set(0, { calls: 0, finished: true });
      out.push({ type: 'choice-end', choice: 0, finishReason: 'content_filter' });
      return;
    }
    if (!Array.isArray(chunk.candidates)) return;
    chunk.candidates.filter(isRecord).forEach((candidate, i) => this.candidate(candidate, i, out));
  }

  /** The upstream stream is over: a truncation error, or the usage. */
  finish(out: StreamEvent[]): void {
    if (this.ended) return;
    this.ended = true;
    const open = [...this.candidates.values()].some((candidate) => !candidate.finished);
    if (!this.started || this.candidates.size === 0 || open) {
      out.push({
        type: 'error',
        error: upstreamStreamTruncated(this.started ? 'before the answer finished' : 'without sending any chunk'),
      });
      return;
    }
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
  }

  private fail(error: ProxyError, out: StreamEvent[]): void {
    out.push({ type: 'error', error });
    this.ended = true;
  }

  private start(chunk: Record<string, unknown>, out: StreamEvent[]): void {
    this.started = true;
    this.ids = callIds(chunk.responseId);
    out.push({
      type: 'response-start',
      id: typeof chunk.responseId === 'string' ? chunk.responseId : '',
      model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : this.request.model,
      created: Math.floor(Date.now() / 1000),
    });
  }

  private candidate(wire: Record<string, unknown>, i: number, out: StreamEvent[]): void {
    const choice = typeof wire.index === 'number' ? wire.index : i;
    let state = this.candidates.get(choice);
    if (!state) this.candidates.set(choice, (state = { calls: 0, finished: false }));
    if (state.finished) return;
    // Calls are numbered across the answer, as a whole answer numbers them.
    const before = [...this.candidates.values()].reduce((sum, other) => sum + other.calls, 0);
    const parts = readParts(wire.content, this.ids, before);
    if (parts.reasoning !== '') out.push({ type: 'reasoning-delta', choice, delta: parts.reasoning });
    if (parts.text !== '') {
      const delta: StreamEventOf<'text-delta'> = { type: 'text-delta', choice, delta: parts.text };
      const logprobs = readLogprobs(wire.logprobsResult);
      if (logprobs) delta.logprobs = logprobs;
      out.push(delta);
    }
    for (const call of parts.toolCalls) {
      // parallel_tool_calls false: Gemini has no such switch, so the answer keeps its first call only.
      if (this.request.parallelToolCalls === false && state.calls > 0) break;
      out.push({ type: 'tool-call-delta', choice, index: state.calls++, id: call.id, name: call.name, argumentsDelta: call.arguments });
    }
    const finish = readFinishReason(wire.finishReason, state.calls > 0);
    if (!finish) return;
    if (finish.warning) this.request.warnings.push(finish.warning);
    state.finished = true;
    out.push({ type: 'choice-end', choice, finishReason: finish.reason });
  }
}

/** The chunk's object, or the ProxyError a message that is not one stands for. */
function parseChunk(message: SseMessage): Record<string, unknown> | ProxyError {
  let chunk: unknown;
  try {
    chunk = JSON.parse(message.data);
  } catch {
    return upstreamBadResponse('The upstream stream sent a chunk that is not JSON.');
  }
  return isRecord(chunk) ? chunk : upstreamBadResponse('The upstream stream sent a chunk that is not a JSON object.');
}
