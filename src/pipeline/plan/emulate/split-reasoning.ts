/**
 * Splits raw generated text into reasoning and content at think tags
 * (`<think>...</think>` by default), also when a tag is cut across stream chunks.
 */
import { TagScanner } from './tag-scanner.js';

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
  private readonly scanner: TagScanner;

  constructor(tags: ThinkTags = defaultThinkTags) {
    this.scanner = new TagScanner(tags.open, tags.close);
  }

  /** Feeds one chunk; returns the pieces that are certain so far. */
  push(chunk: string): SplitPiece[] {
    return toPieces(this.scanner.push(chunk));
  }

  /**
   * True when push(chunk) would return it as one text piece (the usual chunk,
   * outside a thought and with no `<`): the caller may then pass it on as it
   * is, without pushing it.
   */
  passesThrough(chunk: string): boolean {
    return this.scanner.passesThrough(chunk);
  }

  /** Ends the text: whatever was held back is plain text (or reasoning, in an unclosed thought). */
  finish(): SplitPiece[] {
    return toPieces(this.scanner.finish());
  }
}

function toPieces(segments: ReturnType<TagScanner['push']>): SplitPiece[] {
  const pieces: SplitPiece[] = [];
  for (const { inside, text } of segments) {
    if (text === '') continue;
    const kind = inside ? 'reasoning' : 'text';
    const last = pieces[pieces.length - 1];
    if (last?.kind === kind) last.text += text;
    else pieces.push({ kind, text });
  }
  return pieces;
}

/** Splits a whole text at once. */
export function splitReasoning(text: string, tags: ThinkTags = defaultThinkTags): { reasoning: string; text: string } {
  // No open tag, no thought: the scanner would give the text back whole (what it holds back is text at the end).
  if (!text.includes(tags.open)) return { reasoning: '', text };
  const splitter = new ReasoningSplitter(tags);
  const pieces = [...splitter.push(text), ...splitter.finish()];
  return {
    reasoning: pieces
      .filter((piece) => piece.kind === 'reasoning')
      .map((piece) => piece.text)
      .join(''),
    text: pieces
      .filter((piece) => piece.kind === 'text')
      .map((piece) => piece.text)
      .join(''),
  };
}
