/**
 * Upstream bytes -> SSE messages, with eventsource-parser (never a hand-rolled
 * parser). Chunks may split anywhere, even inside a UTF-8 sequence or a `\r\n`.
 */
import { createParser } from 'eventsource-parser';

export interface SseMessage {
  data: string;
  /** The `event:` name, when the server sent one (llama.cpp and OpenAI send none). */
  event?: string;
}

/** The OpenAI-style terminator; nothing after it is yielded. */
const DONE = '[DONE]';

/**
 * Yields each SSE message of `body` until `data: [DONE]`. After `[DONE]` the
 * rest of the body is read and discarded rather than abandoned, so that the
 * connection is released whole and kept alive for the next request.
 *
 * @example
 * for await (const { data } of decodeSse(response.body)) chunks.push(JSON.parse(data));
 */
export async function* decodeSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage, void, undefined> {
  const pending: SseMessage[] = [];
  let done = false;
  const parser = createParser({
    onEvent(message) {
      if (done) return;
      if (message.data === DONE) {
        done = true;
        return;
      }
      pending.push(message.event === undefined ? { data: message.data } : { data: message.data, event: message.event });
    },
  });
  const decoder = new TextDecoder();

  for await (const chunk of body) {
    if (done) continue; // draining after [DONE]
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* flush(pending);
  }
  if (done) return;
  // A last message without its blank line still counts: the body ended, so it is complete.
  parser.feed(`${decoder.decode()}\n\n`);
  yield* flush(pending);
}

function* flush(pending: SseMessage[]): Generator<SseMessage> {
  for (let i = 0; i < pending.length; i++) yield pending[i];
  pending.length = 0;
}
