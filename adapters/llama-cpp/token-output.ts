/**
 * Turns generated tokens into released chunks whose text is exactly the text of
 * their tokens: bytes of an unfinished character and text that may begin a stop
 * sequence are held back, and a stop sequence cuts the output (it is not included).
 */
import { StopMatcher } from './stop-matcher.js';
import { Utf8StreamDecoder } from './utf8-decoder.js';
import type { LlamaTokenLogprob } from './types.js';

export interface OutputToken {
  id: number;
  logprob?: LlamaTokenLogprob;
}

export interface ReleasedChunk {
  text: string;
  tokens: OutputToken[];
}

interface HeldToken extends OutputToken {
  /** Offsets of this token's text in `held`. */
  start: number;
  end: number;
  /** False while the token ends inside a multibyte character. */
  complete: boolean;
}

export interface PushResult {
  /** The text this token decoded to (may be '' while a character is incomplete). */
  decoded: string;
  released?: ReleasedChunk;
  stopped: boolean;
}

export class TokenOutput {
  private readonly decoder = new Utf8StreamDecoder();
  private readonly matcher: StopMatcher;
  private held = '';
  private tokens: HeldToken[] = [];

  /**
   * @param trimTrailingWhitespace hold whitespace back until something follows it, and drop it at
   * the end (grammar-constrained JSON may pad its end with whitespace).
   */
  constructor(
    stops: readonly string[],
    private readonly bytesOf: (token: number) => Uint8Array,
    private readonly trimTrailingWhitespace = false,
  ) {
    this.matcher = new StopMatcher(stops);
  }

  push(token: OutputToken): PushResult {
    const decoded = this.decoder.decode(this.bytesOf(token.id));
    if (this.tokens.length === 0 && !this.decoder.pending && this.releasesAtOnce(decoded)) {
      return { decoded, stopped: false, released: { text: decoded, tokens: [plain(token)] } };
    }
    const start = this.held.length;
    this.held += decoded;
    this.tokens.push({ ...token, start, end: this.held.length, complete: !this.decoder.pending });
    const stopAt = this.matcher.find(this.held);
    if (stopAt >= 0) {
      return { decoded, stopped: true, released: this.releaseStopped(stopAt) };
    }
    const whitespace = this.trimTrailingWhitespace ? this.held.length - this.held.trimEnd().length : 0;
    const safeEnd = this.held.length - Math.max(this.matcher.heldSuffix(this.held), whitespace);
    let count = 0;
    for (let i = 0; i < this.tokens.length; i++) {
      if (this.tokens[i].end > safeEnd) break;
      if (this.tokens[i].complete) count = i + 1;
    }
    return { decoded, stopped: false, released: this.release(count) };
  }

  /** With nothing held (the usual case), text that neither starts a stop nor ends in held whitespace leaves at once. */
  private releasesAtOnce(text: string): boolean {
    if (this.trimTrailingWhitespace && text.trimEnd().length < text.length) return false;
    return this.matcher.find(text) < 0 && this.matcher.heldSuffix(text) === 0;
  }

  /** Ends the output: everything held is released (an unfinished character as U+FFFD). */
  flush(): ReleasedChunk | undefined {
    const rest = this.decoder.flush();
    if (rest && this.tokens.length > 0) {
      this.held += rest;
      this.tokens[this.tokens.length - 1].end = this.held.length;
    }
    if (this.trimTrailingWhitespace) this.held = this.held.trimEnd();
    return this.release(this.tokens.length);
  }

  private release(count: number): ReleasedChunk | undefined {
    if (count === 0) return undefined;
    const released = this.tokens.slice(0, count);
    const end = Math.min(released[released.length - 1].end, this.held.length);
    const text = this.held.slice(0, end);
    this.held = this.held.slice(end);
    this.tokens = this.tokens.slice(count).map((token) => ({ ...token, start: token.start - end, end: token.end - end }));
    return { text, tokens: released.map(plain) };
  }

  /** Releases the text before the stop sequence and the tokens that contributed to it. */
  private releaseStopped(stopAt: number): ReleasedChunk | undefined {
    const released = this.tokens.filter((token) => token.start < stopAt);
    const before = this.held.slice(0, stopAt);
    const text = this.trimTrailingWhitespace ? before.trimEnd() : before;
    this.held = '';
    this.tokens = [];
    if (released.length === 0 && text === '') return undefined;
    return { text, tokens: released.map(plain) };
  }
}

function plain(token: OutputToken): OutputToken {
  return token.logprob ? { id: token.id, logprob: token.logprob } : { id: token.id };
}
