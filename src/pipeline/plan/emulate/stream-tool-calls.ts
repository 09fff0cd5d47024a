/**
 * Hermes-style tool calls (`<tool_call>{json}</tool_call>`) found in a stream
 * as each one completes: text around them streams on, each call comes out
 * whole the moment its closing tag arrives. Whitespace-only runs are held
 * until text follows (then they go out with it, as the whole-text parser
 * joins the text around calls); trailing ones are dropped when calls were made
 * (as that parser trims its text).
 */
import type { ToolCall } from '../../../model/request.js';
import { toToolCall } from './parse-tool-calls.js';
import { TagScanner, type TagSegment } from './tag-scanner.js';

export type ToolStreamPiece = { kind: 'text'; text: string } | { kind: 'call'; call: ToolCall };

const open = '<tool_call>';
const close = '</tool_call>';

export class ToolCallStream {
  private readonly scanner = new TagScanner(open, close);
  private body = '';
  private whitespace = '';
  private calls = 0;

  push(text: string): ToolStreamPiece[] {
    return this.read(this.scanner.push(text));
  }

  finish(): ToolStreamPiece[] {
    const pieces = this.read(this.scanner.finish());
    // An unclosed call is not a call: its text goes out as it came.
    if (this.scanner.isInside) pieces.push(...this.text(open + this.body));
    if (this.calls === 0 && this.whitespace) pieces.push({ kind: 'text', text: this.whitespace });
    this.body = '';
    this.whitespace = '';
    return pieces;
  }

  private read(segments: TagSegment[]): ToolStreamPiece[] {
    const pieces: ToolStreamPiece[] = [];
    for (const segment of segments) {
      if (!segment.inside) {
        pieces.push(...this.text(segment.text));
        continue;
      }
      this.body += segment.text;
      if (!segment.closed) continue;
      const call = toToolCall(this.body.trim());
      if (call) {
        this.calls += 1;
        pieces.push({ kind: 'call', call });
      } else {
        pieces.push(...this.text(open + this.body + close));
      }
      this.body = '';
    }
    return pieces;
  }

  /** Text, with whitespace-only runs held until real text (or the end) shows whether they matter. */
  private text(text: string): ToolStreamPiece[] {
    if (text.trim() === '') {
      this.whitespace += text;
      return [];
    }
    const out = this.whitespace + text;
    this.whitespace = '';
    return [{ kind: 'text', text: out }];
  }
}
