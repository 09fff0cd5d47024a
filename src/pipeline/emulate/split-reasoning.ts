/**
 * Splits raw generated text into reasoning and content at think tags
 * (`<think>...</think>` by default), also when a tag is cut across stream
 * chunks: a chunk's tail that could be the start of a tag is held back.
 */
export interface ThinkTags {
  open: string;
  close: string;
}

export const defaultThinkTags: ThinkTags = { open: '<think>', close: '</think>' };

export interface SplitPiece {
  kind: 'reasoning' | 'text';
  text: string;
}

export class ReasoningSplitter {
  private inside = false;
  private held = '';

  constructor(private readonly tags: ThinkTags = defaultThinkTags) {}

  /** Feeds one chunk; returns the pieces that are certain so far. */
  push(chunk: string): SplitPiece[] {
    let text = this.held + chunk;
    this.held = '';
    const pieces: SplitPiece[] = [];
    for (;;) {
      const tag = this.inside ? this.tags.close : this.tags.open;
      const at = text.indexOf(tag);
      if (at >= 0) {
        this.emit(pieces, text.slice(0, at));
        text = text.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      const keep = partialTagSuffix(text, tag);
      this.emit(pieces, text.slice(0, text.length - keep));
      this.held = text.slice(text.length - keep);
      return pieces;
    }
  }

  /** Ends the text: whatever was held back is plain text (or reasoning, in an unclosed thought). */
  finish(): SplitPiece[] {
    const pieces: SplitPiece[] = [];
    this.emit(pieces, this.held);
    this.held = '';
    return pieces;
  }

  private emit(pieces: SplitPiece[], text: string): void {
    if (text === '') return;
    const kind = this.inside ? 'reasoning' : 'text';
    const last = pieces[pieces.length - 1];
    if (last?.kind === kind) last.text += text;
    else pieces.push({ kind, text });
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagSuffix(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

/** Splits a whole text at once. */
export function splitReasoning(text: string, tags: ThinkTags = defaultThinkTags): { reasoning: string; text: string } {
  const splitter = new ReasoningSplitter(tags);
  const pieces = [...splitter.push(text), ...splitter.finish()];
  return {
    reasoning: pieces.filter((piece) => piece.kind === 'reasoning').map((piece) => piece.text).join(''),
    text: pieces.filter((piece) => piece.kind === 'text').map((piece) => piece.text).join(''),
  };
}
