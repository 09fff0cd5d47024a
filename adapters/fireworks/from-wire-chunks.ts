/** A Fireworks stream (completions or chat) -> StreamEvents: the OpenAI-compatible reader plus Fireworks' extensions. */
import type { NeutralRequest } from '../../src/model/request.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import type { SseMessage } from '../../src/streaming/decode-sse.js';
import { fromWireChunks as fromOpenAICompatibleChunks } from '../openai/from-wire-chunks.js';
import { fireworksExtras } from './wire-extras.js';

/** @example for await (const event of fromWireChunks(decodeSse(body), request)) { ... } */
export function fromWireChunks(messages: AsyncIterable<SseMessage>, request: NeutralRequest): AsyncGenerator<StreamEvent, void, undefined> {
  return fromOpenAICompatibleChunks(messages, request, fireworksExtras);
}
