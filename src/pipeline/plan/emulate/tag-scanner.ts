/**
 * Finds `open ... close` spans in text that arrives in chunks. A chunk's tail
 * that could be the start of a tag is held back until the next chunk shows
 * whether it is one, so a tag cut across chunks is still found.
 */
export interface TagSegment {
  inside: boolean;
  text: string;
  /** True on the inside segment that a close tag ended. */
  closed?: boolean;
}

export class TagScanner {
  private inside = false;
  private held = '';

  constructor(
    private readonly open: string,
    private readonly close: string,
  ) {}

  /** Segments that are certain after this chunk; an empty inside segment marks a span that opened and closed. */
  push(chunk: string): TagSegment[] {
    let text = this.held + chunk;
    this.held = '';
    const segments: TagSegment[] = [];
    for (;;) {
      const tag = this.inside ? this.close : this.open;
      const at = text.indexOf(tag);
      if (at >= 0) {
        this.emit(segments, text.slice(0, at), this.inside);
        text = text.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      const keep = partialTagSuffix(text, tag);
      this.emit(segments, text.slice(0, text.length - keep), false);
      this.held = text.slice(text.length - keep);
      return segments;
    }
  }

  /** The end of the text: whatever was held back belongs to the current side (an unclosed span stays open). */
  finish(): TagSegment[] {
    const segments: TagSegment[] = [];
    this.emit(segments, this.held, false);
    this.held = '';
    return segments;
  }

  get isInside(): boolean {
    return this.inside;
  }

  /** True when push(chunk) would return it whole, outside any span: nothing held back, no tag can start in it. */
  passesThrough(chunk: string): boolean {
    return !this.inside && this.held === '' && chunk !== '' && !chunk.includes(this.open[0]);
  }

  private emit(segments: TagSegment[], text: string, closing: boolean): void {
    if (text === '' && !closing) return;
    const last = segments[segments.length - 1];
    if (last && last.inside === this.inside && !last.closed) {
      last.text += text;
      if (closing) last.closed = true;
    } else {
      segments.push({ inside: this.inside, text, ...(closing ? { closed: true } : {}) });
    }
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag` (such a suffix starts with the tag's first character). */
function partialTagSuffix(text: string, tag: string): number {
  for (let at = text.indexOf(tag[0], Math.max(0, text.length - tag.length + 1)); at >= 0; at = text.indexOf(tag[0], at + 1)) {
    if (text.slice(at) === tag.slice(0, text.length - at)) return text.length - at;
  }
  return 0;
}
