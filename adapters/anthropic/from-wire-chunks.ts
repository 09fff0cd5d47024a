/**
 * Anthropic's named SSE events -> neutral StreamEvents, one choice:
 *  - `message_start`: response-start (its usage holds the prompt's counts);
 *  - `content_block_start` / `content_block_delta`: `text_delta` -> text-delta,
 *    `thinking_delta` -> reasoning-delta, `signature_delta` -> reasoning-signature,
 *    a `tool_use` block's start (id, name) and its `input_json_delta`s -> tool-call-deltas;
 *  - `message_delta`: the stop reason -> choice-end (with the stop sequence), and the
 *    output count; `message_stop` ends the message; `ping` is nothing;
 *  - `error`: an error event, which ends the stream.
 * Usage is sent once, when the stream ends whole.
 */
import { upstreamBadResponse, upstreamStreamTruncated } from '../../src/errors/catalogue.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest } from '../../src/model/request.js';
import type { StreamEvent, StreamEventOf } from '../../src/model/stream-event.js';
import type { SseMessage } from '../../src/streaming/decode-sse.js';
import type { ChunkReader } from '../chunk-reader.js';
import { mapErrorEvent } from './anthropic-errors.js';
import { readStopReason, readWireUsage, toUsage, type WireUsage } from './read-wire.js';

/** A `tool_use` block: its place among the message's calls, and whether any of its input has come. */
interface ToolBlock {
  call: number;
  input: boolean;
}

/**
 * @example
 * const reader = new AnthropicChunkReader(request);
 * for (const message of messages) reader.push(message, events);
 * reader.finish(events); // response-start, text-delta..., choice-end, usage
 */
export class AnthropicChunkReader implements ChunkReader {
  ended = false;
  private started = false;
  private finished = false;
  private readonly usage: WireUsage = { input: 0, output: 0 };
  private readonly tools = new Map<number, ToolBlock>();
  private calls = 0;

  constructor(private readonly request: NeutralRequest) {}

  push(message: SseMessage, out: StreamEvent[]): void {
    if (this.ended) return;
    const event = parseEvent(message, this.request);
    if (event instanceof ProxyError) return this.fail(event, out);
    switch (event.type) {
      case 'message_start':
        this.start(event, out);
        return;
      case 'content_block_start':
        this.blockStart(event, out);
        return;
      case 'content_block_delta':
        this.blockDelta(event, out);
        return;
      case 'content_block_stop':
        this.blockStop(event, out);
        return;
      case 'message_delta':
        this.messageDelta(event, out);
        return;
      case 'error':
        this.fail(mapErrorEvent(event, this.request), out);
        return;
      // `message_stop` (the end is the stream's own), `ping`, and events of later API versions: nothing to say.
    }
  }

  /** The upstream stream is over: a truncation error, or the usage. */
  finish(out: StreamEvent[]): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.started || !this.finished) {
      out.push({
        type: 'error',
        error: upstreamStreamTruncated(this.started ? 'before the message finished' : 'without sending any event'),
      });
      return;
    }
    out.push({ type: 'usage', usage: toUsage(this.usage) });
  }

  private fail(error: ProxyError, out: StreamEvent[]): void {
    out.push({ type: 'error', error });
    this.ended = true;
  }

  private start(event: Record<string, unknown>, out: StreamEvent[]): void {
    const message = isRecord(event.message) ? event.message : {};
    readWireUsage(message.usage, this.usage);
    if (this.started) return;
    this.started = true;
    out.push({
      type: 'response-start',
      id: typeof message.id === 'string' ? message.id : '',
      model: typeof message.model === 'string' ? message.model : this.request.model,
      created: Math.floor(Date.now() / 1000),
      usage: toUsage(this.usage),
    });
  }

  private blockStart(event: Record<string, unknown>, out: StreamEvent[]): void {
    const block = isRecord(event.content_block) ? event.content_block : {};
    const index = typeof event.index === 'number' ? event.index : -1;
    switch (block.type) {
      case 'text':
        if (typeof block.text === 'string' && block.text !== '') out.push({ type: 'text-delta', choice: 0, delta: block.text });
        return;
      case 'thinking':
        if (typeof block.thinking === 'string' && block.thinking !== '')
          out.push({ type: 'reasoning-delta', choice: 0, delta: block.thinking });
        return;
      case 'tool_use': {
        const call = this.calls++;
        this.tools.set(index, { call, input: false });
        const delta: StreamEventOf<'tool-call-delta'> = { type: 'tool-call-delta', choice: 0, index: call, argumentsDelta: '' };
        if (typeof block.id === 'string') delta.id = block.id;
        if (typeof block.name === 'string') delta.name = block.name;
        out.push(delta);
        return;
      }
      case 'redacted_thinking':
        // It arrives whole in its start block: no deltas follow.
        if (typeof block.data === 'string')
          out.push({ type: 'vendor', choice: 0, vendor: 'anthropic', data: { redactedReasoning: block.data } });
        return;
      // Server tools' blocks are not the caller's.
    }
  }

  private blockDelta(event: Record<string, unknown>, out: StreamEvent[]): void {
    const delta = isRecord(event.delta) ? event.delta : {};
    switch (delta.type) {
      case 'text_delta':
        if (typeof delta.text === 'string' && delta.text !== '') out.push({ type: 'text-delta', choice: 0, delta: delta.text });
        return;
      case 'thinking_delta':
        if (typeof delta.thinking === 'string' && delta.thinking !== '')
          out.push({ type: 'reasoning-delta', choice: 0, delta: delta.thinking });
        return;
      case 'signature_delta':
        if (typeof delta.signature === 'string') out.push({ type: 'reasoning-signature', choice: 0, signature: delta.signature });
        return;
      case 'input_json_delta': {
        const tool = this.tools.get(typeof event.index === 'number' ? event.index : -1);
        if (!tool || typeof delta.partial_json !== 'string' || delta.partial_json === '') return;
        tool.input = true;
        out.push({ type: 'tool-call-delta', choice: 0, index: tool.call, argumentsDelta: delta.partial_json });
        return;
      }
    }
  }

  /** A call whose input never came has the empty object as arguments, as an answer not streamed has. */
  private blockStop(event: Record<string, unknown>, out: StreamEvent[]): void {
    const tool = this.tools.get(typeof event.index === 'number' ? event.index : -1);
    if (tool && !tool.input) {
      tool.input = true;
      out.push({ type: 'tool-call-delta', choice: 0, index: tool.call, argumentsDelta: '{}' });
    }
  }

  private messageDelta(event: Record<string, unknown>, out: StreamEvent[]): void {
    readWireUsage(event.usage, this.usage);
    const delta = isRecord(event.delta) ? event.delta : {};
    const finishReason = readStopReason(delta.stop_reason);
    if (!finishReason || this.finished) return;
    this.finished = true;
    const end: StreamEventOf<'choice-end'> = { type: 'choice-end', choice: 0, finishReason };
    if (finishReason === 'stop' && typeof delta.stop_sequence === 'string') end.stopSequence = delta.stop_sequence;
    out.push(end);
  }
}

/** The event's object (its `type` says what it is), or the ProxyError a message that is not one stands for. */
function parseEvent(message: SseMessage, request: NeutralRequest): Record<string, unknown> | ProxyError {
  let event: unknown;
  try {
    event = JSON.parse(message.data);
  } catch {
    if (message.event === 'error') return mapErrorEvent({ type: 'error', error: { type: 'api_error', message: message.data } }, request);
    return upstreamBadResponse('The upstream stream sent an event that is not JSON.');
  }
  if (!isRecord(event)) return upstreamBadResponse('The upstream stream sent an event that is not a JSON object.');
  // The data's own `type` names the event; an `event: error` line with other data is an error all the same.
  if (message.event === 'error' && event.type !== 'error') return { type: 'error', error: isRecord(event.error) ? event.error : event };
  return event;
}
