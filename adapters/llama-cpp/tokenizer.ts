/**
 * The worker's tokenizer: a short text is tokenized at once, where it is asked
 * for (a few milliseconds at most); a longer one goes to the tokenizer thread
 * (tokenizer-thread.ts), one text at a time, with at most `queueLimit` waiting
 * (past it QueueFullError, a 429 with a retry estimate, as for generation). A
 * long text costs its own caller a wait, and the other callers nothing.
 */
import { SequencePool } from './scheduler.js';
import type { TokenizerThread } from './tokenizer-thread.js';

/**
 * UTF-16 units tokenized in place, so that a short prompt never waits behind a long text: at
 * worst about 15 ms here (12 kB of byte tokens, SentencePiece's quadratic case).
 */
const INLINE_TEXT_UNITS = 4096;

export interface TokenizerOptions {
  /** The model's own tokenizer, on the calling thread. */
  inline(text: string, special: boolean): number[];
  /** The thread, once started: a long text asked for sooner waits for it. */
  thread: Promise<TokenizerThread>;
  /** Long texts that may wait for the thread; past it a 429. */
  queueLimit: number;
}

export class Tokenizer {
  private readonly slots: Promise<SequencePool<TokenizerThread>>;

  constructor(private readonly options: TokenizerOptions) {
    this.slots = options.thread.then((thread) => new SequencePool([thread], options.queueLimit));
  }

  /** Token ids of `text`; rejects with QueueFullError past the queue limit, an AbortError when `signal` aborts while it waits. */
  async tokenize(text: string, special: boolean, signal?: AbortSignal): Promise<number[]> {
    if (text.length <= INLINE_TEXT_UNITS) return this.options.inline(text, special);
    const slots = await this.slots;
    signal?.throwIfAborted();
    const thread = await slots.acquire([], signal);
    try {
      return await thread.tokenize(text, special);
    } finally {
      slots.release(thread);
    }
  }
}
