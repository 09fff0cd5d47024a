/**
 * Upstream bytes -> SSE messages, with eventsource-parser (never a hand-rolled
 * parser). Chunks may split anywhere, even inside a UTF-8 sequence or a `\r\n`.
 */
import { createParser } from 'eventsource-parser';
import { StringDecoder } from 'node:string_decoder';

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
  // StringDecoder, not TextDecoder (docs/performance.md); it keeps a leading BOM, which SSE drops (see text()).
  private readonly decoder = new StringDecoder('utf8');
  private started = false;
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
    this.parser.feed(this.text(this.decoder.write(bytes)));
    return this.take();
  }

  /** The body ended: a last message without its blank line still counts, as it is complete. */
  finish(): readonly SseMessage[] {
    if (this.done) return NO_MESSAGES;
    this.parser.feed(`${this.text(this.decoder.end())}\n\n`);
    return this.take();
  }

  /** Decoded text, without the byte order mark a stream may open with. */
  private text(decoded: string): string {
    if (this.started || decoded === '') return decoded;
    this.started = true;
    return decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  }

  private take(): readonly SseMessage[] {
    if (this.pending.length === 0) return NO_MESSAGES;
    const messages = this.pending;
    this.pending = [];
    return messages;
  }
}
