/**
 * StreamEvents -> the Responses API's typed events, each with its
 * `sequence_number`: `response.created` and `response.in_progress`, then per
 * output item `output_item.added`, its parts and deltas, their `.done`s and
 * `output_item.done`, and last `response.completed` (or `.incomplete`, or
 * `.failed` when the stream breaks: never a silent cut). Items open in the
 * order the model produces them: reasoning, then the message, then tool calls.
 * Each upstream event is one synchronous step (stream-serializer.ts). The
 * closing events repeat an item's text up to `limits.repeatedOutputBytes`
 * (repeated-output.ts): the deltas carry all of it.
 */
import { DEFAULT_LIMITS } from '../../config/settings.js';
import type { ProxyError } from '../../errors/proxy-error.js';
import type { ChatLogprobEntry } from '../../model/logprobs.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type FinishReason, type Usage } from '../../model/result.js';
import type { SerializedEvent, StreamEventOf } from '../../model/stream-event.js';
import type { StreamSerializer } from '../stream-serializer.js';
import { missingStart } from '../../errors/catalogue.js';
import { idBase } from '../response-id.js';
import {
  callItem,
  errorBody,
  itemIds,
  logprobsBody,
  messageItem,
  outputTextPart,
  reasoningItem,
  requestToolNames,
  responseHead,
  statusOf,
  usageBody,
  type OutputItem,
  type ResponseStatus,
} from './response-object.js';
import { logprobsBytes, markCut, RepeatedOutput } from './repeated-output.js';
import type { ToolNames } from './tool-names.js';
import type { DialectContext } from '../dialect.js';
import type { Sealer } from '../sealer.js';
import { reasoningSealer, sealReasoning } from './sealed-items.js';

interface OpenText {
  id: string;
  outputIndex: number;
  text: RepeatedOutput;
  /** Reasoning only: what the backend gave with it, sealed into the item when the caller asked. */
  signature?: string;
  redacted?: string[];
}
interface OpenMessage extends OpenText {
  logprobs: ChatLogprobEntry[];
}
interface OpenCall {
  id: string;
  outputIndex: number;
  callId: string;
  name: string;
  arguments: RepeatedOutput;
  custom: boolean;
}

export class ResponsesStreamSerializer implements StreamSerializer<'anthropic'> {
  /** An Anthropic backend's redacted reasoning (vendor-data.ts): sealed into the reasoning item's encrypted_content. */
  readonly vendors = ['anthropic'] as const;
  ended = false;
  private sequence = 0;
  private head?: Record<string, unknown>;
  private base = '';
  private readonly done: OutputItem[] = [];
  private reasoning?: OpenText;
  private message?: OpenMessage;
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: FinishReason | null = null;
  private usage?: Usage;
  private out: Record<string, unknown>[] = [];
  /** Set once a closing event left part of an item out. */
  private cut = false;
  /** The caller's names for the tools the model calls (a namespaced tool's, restored). */
  private readonly names: ToolNames;
  private readonly repeatedOutputBytes: number;
  /** Set when the caller asked for sealed reasoning (sealed-items.ts). */
  private readonly sealer?: Sealer;

  constructor(
    private readonly request: NeutralRequest,
    context?: DialectContext,
  ) {
    this.names = requestToolNames(request);
    this.repeatedOutputBytes = (context?.limits ?? DEFAULT_LIMITS).repeatedOutputBytes;
    const sealer = reasoningSealer(request, context);
    if (sealer) this.sealer = sealer;
  }

  /** One upstream event -> the events it produces. */
  push(event: SerializedEvent<'anthropic'>, out: Record<string, unknown>[]): void {
    if (this.ended) return;
    this.out = out;
    if (event.type === 'response-start') this.start(event);
    else if (event.type === 'usage') this.usage = addUsage(this.usage, event.usage);
    else if (event.type === 'perf') {
      /* timings have no place in a Response */
    } else if (event.type === 'error') this.fail(event.error);
    else if (!this.head) this.fail(missingStart());
    else if (event.choice !== 0) {
      /* Responses have one output: n is not a Responses field */
    } else if (event.type === 'reasoning-delta') this.reasoningDelta(event.delta);
    else if (event.type === 'text-delta') this.textDelta(event);
    else if (event.type === 'tool-call-delta') this.toolCallDelta(event);
    else if (event.type === 'choice-end') this.choiceEnd(event);
    // An Anthropic signature or redacted block reaches the caller only sealed, in the reasoning item's encrypted_content.
    else if (!this.sealer) return;
    else if (event.type === 'reasoning-signature') {
      if (this.reasoning) this.reasoning.signature = event.signature;
    } else if (event.type === 'vendor') (this.openReasoning().redacted ??= []).push(event.data.redactedReasoning);
  }

  /** The end of the upstream stream: close what is open, then `response.completed` or `.incomplete`. */
  finish(out: Record<string, unknown>[]): void {
    if (this.ended) return;
    this.out = out;
    if (!this.head) {
      this.fail(missingStart());
      return;
    }
    this.closeAll(this.itemStatus());
    const { status, incomplete_details } = statusOf(this.finishReason);
    const response = {
      ...this.head,
      status,
      incomplete_details,
      completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
      output: this.done,
      usage: usageBody(this.usage),
    };
    if (this.cut) markCut(response);
    this.emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
    this.ended = true;
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    this.out.push({ type, ...fields, sequence_number: this.sequence++ });
  }

  private start(event: StreamEventOf<'response-start'>): void {
    if (this.head) return;
    this.head = responseHead(this.request, event);
    this.base = idBase(this.head.id as string);
    this.emit('response.created', { response: this.head });
    this.emit('response.in_progress', { response: this.head });
  }

  private nextIndex(): number {
    return this.done.length + (this.reasoning ? 1 : 0) + (this.message ? 1 : 0) + this.calls.size;
  }

  private reasoningDelta(delta: string): void {
    const reasoning = this.openReasoning();
    reasoning.text.add(delta);
    this.emit('response.reasoning_summary_text.delta', {
      item_id: reasoning.id,
      output_index: reasoning.outputIndex,
      summary_index: 0,
      delta,
    });
  }

  private openReasoning(): OpenText {
    if (this.reasoning) return this.reasoning;
    this.closeAll('completed');
    const reasoning: OpenText = { id: itemIds.reasoning(this.base), outputIndex: this.nextIndex(), text: this.repeated() };
    this.reasoning = reasoning;
    this.emit('response.output_item.added', { output_index: reasoning.outputIndex, item: reasoningItem(reasoning.id, '') });
    this.emit('response.reasoning_summary_part.added', {
      item_id: reasoning.id,
      output_index: reasoning.outputIndex,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
    });
    return reasoning;
  }

  private textDelta(event: StreamEventOf<'text-delta'>): void {
    if (!this.message) {
      this.closeReasoning();
      this.closeCalls('completed');
      this.message = { id: itemIds.message(this.base), outputIndex: this.nextIndex(), text: this.repeated(), logprobs: [] };
      this.emit('response.output_item.added', {
        output_index: this.message.outputIndex,
        item: messageItem(this.message.id, 'in_progress', []),
      });
      this.emit('response.content_part.added', {
        item_id: this.message.id,
        output_index: this.message.outputIndex,
        content_index: 0,
        part: outputTextPart(''),
      });
    }
    const logprobs = logprobsBody(event.logprobs, this.request);
    const repeated = this.message.text.add(event.delta, logprobs.length > 0 ? logprobsBytes(logprobs) : 0);
    if (repeated) this.message.logprobs.push(...logprobs);
    this.emit('response.output_text.delta', {
      item_id: this.message.id,
      output_index: this.message.outputIndex,
      content_index: 0,
      delta: event.delta,
      logprobs,
    });
  }

  private toolCallDelta(event: StreamEventOf<'tool-call-delta'>): void {
    let call = this.calls.get(event.index);
    if (!call) {
      this.closeReasoning();
      this.closeMessage('completed');
      call = {
        id: itemIds.call(this.base, event.index),
        outputIndex: this.nextIndex(),
        callId: event.id ?? `call_${this.base}_${event.index}`,
        name: event.name ?? '',
        arguments: this.repeated(),
        custom: event.custom === true,
      };
      this.calls.set(event.index, call);
      this.emit('response.output_item.added', {
        output_index: call.outputIndex,
        item: callItem(call.id, { id: call.callId, name: call.name, arguments: '', custom: call.custom }, 'in_progress', this.names),
      });
    }
    if (event.name !== undefined && call.name === '') call.name = event.name;
    if (event.argumentsDelta === '') return;
    call.arguments.add(event.argumentsDelta);
    const type = call.custom ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta';
    this.emit(type, { item_id: call.id, output_index: call.outputIndex, delta: event.argumentsDelta });
  }

  private choiceEnd(event: StreamEventOf<'choice-end'>): void {
    this.finishReason = event.finishReason;
    if (event.refusal) this.refusal(event.refusal);
    this.closeAll(this.itemStatus());
  }

  /** OpenAI streams a refusal as a message whose one part is the refusal. */
  private refusal(text: string): void {
    this.closeAll('completed');
    const id = itemIds.message(this.base);
    const outputIndex = this.nextIndex();
    const part = { type: 'refusal', refusal: text };
    this.emit('response.output_item.added', { output_index: outputIndex, item: messageItem(id, 'in_progress', []) });
    this.emit('response.content_part.added', {
      item_id: id,
      output_index: outputIndex,
      content_index: 0,
      part: { type: 'refusal', refusal: '' },
    });
    this.emit('response.refusal.delta', { item_id: id, output_index: outputIndex, content_index: 0, delta: text });
    this.emit('response.refusal.done', { item_id: id, output_index: outputIndex, content_index: 0, refusal: text });
    this.emit('response.content_part.done', { item_id: id, output_index: outputIndex, content_index: 0, part });
    this.finishItem(messageItem(id, 'completed', [part]), outputIndex);
  }

  /** After output began, a failure ends the stream with `response.failed`; before it, with an `error` event. */
  private fail(error: ProxyError): void {
    if (this.head) {
      this.closeAll('incomplete');
      const response = { ...this.head, status: 'failed', error: errorBody(error), output: this.done, usage: usageBody(this.usage) };
      if (this.cut) markCut(response);
      this.emit('response.failed', { response });
    } else {
      this.emit('error', { code: error.code ?? error.type, message: error.message, param: error.param });
    }
    this.ended = true;
  }

  /** What the closing events will repeat of a new item. */
  private repeated(): RepeatedOutput {
    return new RepeatedOutput(this.repeatedOutputBytes);
  }

  /** An item's repeated text, noting a cut. */
  private repeatedText(output: RepeatedOutput): string {
    if (output.cut) this.cut = true;
    return output.text();
  }

  private itemStatus(): ResponseStatus {
    return statusOf(this.finishReason).status === 'incomplete' ? 'incomplete' : 'completed';
  }

  private closeAll(status: ResponseStatus): void {
    this.closeReasoning();
    this.closeMessage(status);
    this.closeCalls(status);
  }

  private closeReasoning(): void {
    const open = this.reasoning;
    if (!open) return;
    this.reasoning = undefined;
    const at = { item_id: open.id, output_index: open.outputIndex, summary_index: 0 };
    const text = this.repeatedText(open.text);
    this.emit('response.reasoning_summary_text.done', { ...at, text });
    this.emit('response.reasoning_summary_part.done', { ...at, part: { type: 'summary_text', text } });
    this.finishItem({ ...reasoningItem(open.id, text), ...this.sealed(open) }, open.outputIndex);
  }

  /** The item's encrypted_content, when the caller asked: reasoning cut short by limits.repeatedOutputBytes is sealed without its text. */
  private sealed(open: OpenText): { encrypted_content?: string } {
    if (!this.sealer) return {};
    const whole = !open.text.cut;
    return {
      encrypted_content: sealReasoning(this.sealer, {
        ...(whole ? { text: open.text.text() } : {}),
        ...(whole && open.signature !== undefined ? { signature: open.signature } : {}),
        ...(open.redacted ? { redacted: open.redacted } : {}),
      }),
    };
  }

  private closeMessage(status: ResponseStatus): void {
    const open = this.message;
    if (!open) return;
    this.message = undefined;
    const at = { item_id: open.id, output_index: open.outputIndex, content_index: 0 };
    const text = this.repeatedText(open.text);
    const part = outputTextPart(text, open.logprobs);
    this.emit('response.output_text.done', { ...at, text, logprobs: open.logprobs });
    this.emit('response.content_part.done', { ...at, part });
    this.finishItem(messageItem(open.id, status, [part]), open.outputIndex);
  }

  private closeCalls(status: ResponseStatus): void {
    for (const call of this.calls.values()) {
      const at = { item_id: call.id, output_index: call.outputIndex };
      const args = this.repeatedText(call.arguments);
      if (call.custom) this.emit('response.custom_tool_call_input.done', { ...at, input: args });
      else this.emit('response.function_call_arguments.done', { ...at, name: this.names.restore(call.name).name, arguments: args });
      this.finishItem(
        callItem(call.id, { id: call.callId, name: call.name, arguments: args, custom: call.custom }, status, this.names),
        call.outputIndex,
      );
    }
    this.calls.clear();
  }

  private finishItem(item: OutputItem, outputIndex: number): void {
    this.done.push(item);
    this.emit('response.output_item.done', { output_index: outputIndex, item });
  }
}
