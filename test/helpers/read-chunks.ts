/** Feeding a ChunkReader as the remote adapter does (each packet's messages, then finish), for reader tests. */
import type { ChunkReader } from '../../adapters/chunk-reader.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import { SseDecoder, type SseMessage } from '../../src/streaming/decode-sse.js';

/** The events of `messages`, one packet each. */
export async function* readMessages(reader: ChunkReader, messages: AsyncIterable<SseMessage>): AsyncGenerator<StreamEvent> {
  const out: StreamEvent[] = [];
  for await (const message of messages) {
    reader.push(message, out);
    yield* out.splice(0);
    if (reader.ended) return;
  }
  reader.finish(out);
  yield* out;
}

/** The events of an SSE body. */
export async function* readSse(reader: ChunkReader, body: AsyncIterable<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new SseDecoder();
  async function* messages(): AsyncGenerator<SseMessage> {
    for await (const bytes of body) yield* decoder.push(bytes);
    yield* decoder.finish();
  }
  yield* readMessages(reader, messages());
}
