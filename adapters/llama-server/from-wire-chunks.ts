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
import { fromWireChunks as fromOpenAICompatibleChunks } from '../openai/from-wire-chunks.js';
import { readWireUsage } from '../openai/read-wire-usage.js';
import { ChoiceUsages } from './choice-usage.js';

/** Only chunks that end a choice or carry usage are parsed twice. */
const WORTH_A_LOOK = /"(?:usage"\s*:\s*\{|finish_reason"\s*:\s*")/;

/** @example for await (const event of fromWireChunks(decodeSse(body), request)) { ... } */
export async function* fromWireChunks(messages: AsyncIterable<SseMessage>, request: NeutralRequest): AsyncGenerator<StreamEvent, void, undefined> {
  const usages = new ChoiceUsages(request);
  for await (const event of fromOpenAICompatibleChunks(noteUsages(messages, usages), request)) {
    if (event.type === 'usage') yield { type: 'usage', usage: usages.total() ?? event.usage };
    else yield event;
  }
}

/** Passes every message on unchanged, noting whose usage each one carries. */
async function* noteUsages(messages: AsyncIterable<SseMessage>, usages: ChoiceUsages): AsyncGenerator<SseMessage> {
  let lastEnded = 0;
  for await (const message of messages) {
    const chunk = WORTH_A_LOOK.test(message.data) ? parse(message.data) : undefined;
    if (chunk) {
      const choices = Array.isArray(chunk.choices) ? chunk.choices.filter(isRecord) : [];
      for (const choice of choices) if (typeof choice.finish_reason === 'string') lastEnded = indexOf(choice);
      const usage = readWireUsage(chunk.usage);
      // A chat usage chunk has no choices: it belongs to the choice that just ended.
      if (usage) usages.add(choices.length > 0 ? indexOf(choices[0]) : lastEnded, usage);
    }
    yield message;
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
