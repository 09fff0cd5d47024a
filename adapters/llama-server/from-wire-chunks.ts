/**
 * A llama-server stream -> StreamEvents: the shared OpenAI-compatible reader,
 * plus the usage of all choices (each choice's own usage arrives after it ends:
 * on its finishing chunk for completions, in a `choices: []` chunk right after
 * it for chat; choice-usage.ts adds them up).
 */
import type { NeutralRequest } from '../../src/model/request.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import type { SseMessage } from '../../src/streaming/decode-sse.js';
import { isRecord } from '../../src/model/is-record.js';
import type { ChunkReader } from '../chunk-reader.js';
import { OpenAIChunkReader } from '../openai/from-wire-chunks.js';
import { readWireUsage } from '../openai/read-wire-usage.js';
import { ChoiceUsages } from './choice-usage.js';

/** Only chunks that end a choice or carry usage are parsed twice. */
const WORTH_A_LOOK = /"(?:usage"\s*:\s*\{|finish_reason"\s*:\s*")/;

/** The shared reader, with each message's usage noted first. */
export class LlamaServerChunkReader implements ChunkReader {
  private readonly inner: OpenAIChunkReader;
  private readonly usages: ChoiceUsages;
  private lastEnded = 0;

  constructor(request: NeutralRequest) {
    this.inner = new OpenAIChunkReader(request);
    this.usages = new ChoiceUsages(request);
  }

  get ended(): boolean {
    return this.inner.ended;
  }

  push(message: SseMessage, out: StreamEvent[]): void {
    this.note(message);
    this.inner.push(message, out);
  }

  finish(out: StreamEvent[]): void {
    const from = out.length;
    this.inner.finish(out);
    for (let i = from; i < out.length; i++) {
      const event = out[i];
      if (event.type === 'usage') out[i] = { type: 'usage', usage: this.usages.total() ?? event.usage };
    }
  }

  /** Whose usage the message carries. */
  private note(message: SseMessage): void {
    const chunk = WORTH_A_LOOK.test(message.data) ? parse(message.data) : undefined;
    if (!chunk) return;
    const choices = Array.isArray(chunk.choices) ? chunk.choices.filter(isRecord) : [];
    for (const choice of choices) if (typeof choice.finish_reason === 'string') this.lastEnded = indexOf(choice);
    const usage = readWireUsage(chunk.usage);
    // A chat usage chunk has no choices: it belongs to the choice that just ended.
    if (usage) this.usages.add(choices.length > 0 ? indexOf(choices[0]) : this.lastEnded, usage);
  }
}

function parse(data: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined; // the shared reader reports it
  }
}

function indexOf(choice: Record<string, unknown>): number {
  return typeof choice.index === 'number' ? choice.index : 0;
}
