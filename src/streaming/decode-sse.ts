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
 * Yields the SSE messages of each packet of `body`, together, until `data: [DONE]`
 * (a packet often carries many: they are handled in one step). After `[DONE]` the
 * rest of the body is read and discarded rather than abandoned, so that the
 * connection is released whole and kept alive for the next request.
 *
 * @example
 * for await (const messages of decodeSseBatches(response.body)) for (const { data } of messages) chunks.push(JSON.parse(data));
 */
export async function* decodeSseBatches(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseMessage[], void, undefined> {
  let pending: SseMessage[] = [];
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
  const take = () => {
    const messages = pending;
    pending = [];
    return messages;
  };

  for await (const chunk of body) {
    if (done) continue; // draining after [DONE]
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (pending.length > 0) yield take();
  }
  if (done) return;
  // A last message without its blank line still counts: the body ended, so it is complete.
  parser.feed(`${decoder.decode()}\n\n`);
  if (pending.length > 0) yield take();
}
