/**
 * StreamEvents -> Anthropic's stream: `message_start`, then per content block
 * `content_block_start`, its deltas (`thinking_delta` and `signature_delta`,
 * `text_delta`, `input_json_delta` as a call's arguments arrive) and
 * `content_block_stop`, then `message_delta` with the stop reason and usage
 * and `message_stop`. A failure ends the stream with an `error` event, never
 * `message_stop`. One block is open at a time, in the order the model
 * produces them; Messages has no `n`, so only choice 0 is written.
 */
import type { Hash } from 'node:crypto';
import { missingStart } from '../../errors/catalogue.js';
import type { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type FinishReason, type Usage } from '../../model/result.js';
import type { SerializedEvent, StreamEventOf } from '../../model/stream-event.js';
import type { StreamSerializer } from '../stream-serializer.js';
import { messagesErrorBody } from './error-body.js';
import { callerModel, messageId, stopReasonOf, toolUseId, usageBodyOf } from './message-body.js';
import { proxySignature, signatureHash } from './thinking-signature.js';

type Chunk = Record<string, unknown>;

type OpenBlock =
  | { kind: 'text'; index: number }
  | { kind: 'thinking'; index: number; hash: Hash; signed: boolean }
  | { kind: 'tool'; index: number; call: number };

export class MessagesStreamSerializer implements StreamSerializer<'anthropic'> {
  /** An Anthropic backend's redacted reasoning (vendor-data.ts): its own redacted_thinking blocks. */
  readonly vendors = ['anthropic'] as const;
  ended = false;
  private started = false;
  private block?: OpenBlock;
  private blocks = 0;
  private finishReason: FinishReason | null = null;
  private stopSequence?: string;
  private usage?: Usage;
  private readonly omitThinking: boolean;

  constructor(private readonly request: NeutralRequest) {
    this.omitThinking = request.echoedParams?.thinking_display === 'omitted';
  }

  push(event: SerializedEvent<'anthropic'>, out: Chunk[]): void {
    if (this.ended) return;
    if (event.type === 'usage') this.usage = addUsage(this.usage, event.usage);
    else if (event.type === 'perf') return;
    else if (event.type === 'error') this.fail(event.error, out);
    else if (event.type === 'response-start') this.start(event, out);
    else if (!this.started) this.fail(missingStart(), out);
    else if (event.choice !== 0) return;
    else if (event.type === 'reasoning-delta') this.thinking(event.delta, out);
    else if (event.type === 'reasoning-signature') this.signature(event.signature, out);
    else if (event.type === 'vendor') this.redacted(event.data.redactedReasoning, out);
    else if (event.type === 'text-delta') this.text(event.delta, out);
    else if (event.type === 'tool-call-delta') this.toolCall(event.index, event.id, event.name, event.argumentsDelta, out);
    else {
      if (event.refusal) this.text(event.refusal, out);
      this.close(out);
      this.finishReason = event.finishReason;
      this.stopSequence = event.stopSequence;
    }
  }

  finish(out: Chunk[]): void {
    this.close(out);
    out.push({
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(this.finishReason, this.stopSequence), stop_sequence: this.stopSequence ?? null },
      usage: usageBodyOf(this.usage),
    });
    out.push({ type: 'message_stop' });
  }

  /** `message_start` says the prompt's size where the backend knew it before generating, as Anthropic does. */
  private start({ id, model, usage }: StreamEventOf<'response-start'>, out: Chunk[]): void {
    if (this.started) return;
    this.started = true;
    const message = {
      id: messageId(id),
      type: 'message',
      role: 'assistant',
      model: callerModel(this.request, model),
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usageBodyOf(usage ?? this.usage),
    };
    out.push({ type: 'message_start', message });
  }

  private thinking(delta: string, out: Chunk[]): void {
    const block =
      this.block?.kind === 'thinking'
        ? this.block
        : this.open({ kind: 'thinking', hash: signatureHash(), signed: false }, { type: 'thinking', thinking: '', signature: '' }, out);
    block.hash.update(delta);
    if (!this.omitThinking && delta !== '') out.push(this.delta(block.index, { type: 'thinking_delta', thinking: delta }));
  }

  /** The backend's own signature (an Anthropic backend's) goes as it came; without one, the proxy signs the block as it closes. */
  private signature(signature: string, out: Chunk[]): void {
    const block =
      this.block?.kind === 'thinking'
        ? this.block
        : this.open({ kind: 'thinking', hash: signatureHash(), signed: false }, { type: 'thinking', thinking: '', signature: '' }, out);
    block.signed = true;
    out.push(this.delta(block.index, { type: 'signature_delta', signature }));
  }

  /** A redacted block comes whole: it opens and closes at once, between the blocks around it. */
  private redacted(data: string, out: Chunk[]): void {
    this.close(out);
    const index = this.blocks++;
    out.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data } });
    out.push({ type: 'content_block_stop', index });
  }

  private text(delta: string, out: Chunk[]): void {
    if (delta === '') return;
    const block = this.block?.kind === 'text' ? this.block : this.open({ kind: 'text' }, { type: 'text', text: '' }, out);
    out.push(this.delta(block.index, { type: 'text_delta', text: delta }));
  }

  private toolCall(call: number, id: string | undefined, name: string | undefined, args: string, out: Chunk[]): void {
    const current = this.block?.kind === 'tool' && this.block.call === call ? this.block : undefined;
    const block =
      current ??
      this.open({ kind: 'tool', call }, { type: 'tool_use', id: toolUseId(id ?? `call_${call}`), name: name ?? '', input: {} }, out);
    if (args !== '') out.push(this.delta(block.index, { type: 'input_json_delta', partial_json: args }));
  }

  private open<B extends Omit<OpenBlock, 'index'>>(block: B, contentBlock: Chunk, out: Chunk[]): B & { index: number } {
    this.close(out);
    const opened = { ...block, index: this.blocks++ } as B & { index: number };
    this.block = opened as unknown as OpenBlock;
    out.push({ type: 'content_block_start', index: opened.index, content_block: contentBlock });
    return opened;
  }

  private close(out: Chunk[]): void {
    const block = this.block;
    if (!block) return;
    if (block.kind === 'thinking' && !block.signed)
      out.push(this.delta(block.index, { type: 'signature_delta', signature: proxySignature(block.hash) }));
    out.push({ type: 'content_block_stop', index: block.index });
    this.block = undefined;
  }

  private delta(index: number, delta: Chunk): Chunk {
    return { type: 'content_block_delta', index, delta };
  }

  private fail(error: ProxyError, out: Chunk[]): void {
    out.push(messagesErrorBody(error));
    this.ended = true;
  }
}
