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

/** The OpenAI-style terminator; nothing after it is returned. */
const DONE = '[DONE]';
const NO_MESSAGES: readonly SseMessage[] = Object.freeze([]);

/**
 * The SSE messages of a body, one synchronous step per packet: `push` returns
 * the messages a packet completes (a packet often carries many), until
 * `data: [DONE]`; after it, `done` is set and nothing more is returned. The
 * caller keeps reading the body to its end rather than abandon it, so that the
 * connection is released whole and kept alive for the next request.
 *
 * @example
 * const decoder = new SseDecoder();
 * for await (const bytes of body) for (const { data } of decoder.push(bytes)) chunks.push(JSON.parse(data));
 * for (const { data } of decoder.finish()) chunks.push(JSON.parse(data));
 */
export class SseDecoder {
  done = false;
  private pending: SseMessage[] = [];
  private readonly decoder = new TextDecoder();
  private readonly parser = createParser({
    onEvent: (message) => {
      if (this.done) return;
      if (message.data === DONE) {
        this.done = true;
        return;
      }
      this.pending.push(message.event === undefined ? { data: message.data } : { data: message.data, event: message.event });
    },
  });

  push(bytes: Uint8Array): readonly SseMessage[] {
    if (this.done) return NO_MESSAGES;
    this.parser.feed(this.decoder.decode(bytes, { stream: true }));
    return this.take();
  }

  /** The body ended: a last message without its blank line still counts, as it is complete. */
  finish(): readonly SseMessage[] {
    if (this.done) return NO_MESSAGES;
    this.parser.feed(`${this.decoder.decode()}\n\n`);
    return this.take();
  }

  private take(): readonly SseMessage[] {
    if (this.pending.length === 0) return NO_MESSAGES;
    const messages = this.pending;
    this.pending = [];
    return messages;
  }
}
