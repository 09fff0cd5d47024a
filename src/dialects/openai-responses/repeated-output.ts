/**
 * What a Responses stream's closing events repeat of one output item. OpenAI
 * repeats an item's whole text in `output_text.done`, `content_part.done`,
 * `output_item.done` and `response.completed`: four copies on the wire, and
 * many more in memory while they are written (each event's JSON, the packet's
 * text, its bytes), so 100 MB from an upstream became 501 MB to the caller and
 * 1.4 GB of memory. The deltas carry everything; the closing events repeat at
 * most `limits.repeatedOutputBytes` of an item (its text with its logprobs, or
 * a call's arguments): past it, the first whole deltas that fit and a marker
 * saying how much is not repeated (README, Limits).
 */
import type { ChatLogprobEntry } from '../../model/logprobs.js';

/** Responses whose output the closing events cut: not kept in the store (they are not what the model said). */
const cutResponses = new WeakSet<object>();

/** The closing events repeat `kept` and this: the item is in the deltas, whole. */
function cutMarker(omittedBytes: number): string {
  return `\n[dialect-proxy: ${omittedBytes} more bytes were streamed in the deltas and are not repeated here (limits.repeatedOutputBytes)]`;
}

export class RepeatedOutput {
  /** True once something was left out: every later delta is the deltas' alone too. */
  cut = false;
  private kept = '';
  private keptBytes = 0;
  private omittedBytes = 0;

  constructor(private readonly limit: number) {}

  /**
   * Takes one delta; `extraBytes` is what else the closing events repeat with it (its logprobs).
   * Returns whether it is repeated.
   */
  add(delta: string, extraBytes = 0): boolean {
    const bytes = Buffer.byteLength(delta);
    if (!this.cut && this.keptBytes + bytes + extraBytes <= this.limit) {
      this.kept += delta;
      this.keptBytes += bytes + extraBytes;
      return true;
    }
    this.cut = true;
    this.omittedBytes += bytes;
    return false;
  }

  /** What the closing events carry: all of it, or what fit and the marker. */
  text(): string {
    return this.cut ? this.kept + cutMarker(this.omittedBytes) : this.kept;
  }
}

/** Marks a Response whose output was cut. */
export function markCut(response: object): void {
  cutResponses.add(response);
}

/** True for a Response whose closing events cut an item (repeated-output.ts). */
export function wasCut(response: object): boolean {
  return cutResponses.has(response);
}

/** About the bytes of logprob entries' JSON (a number is taken as 20 characters), without writing it. */
export function logprobsBytes(entries: readonly ChatLogprobEntry[]): number {
  let bytes = 0;
  for (const entry of entries) {
    bytes += 70 + entry.token.length + 4 * (entry.bytes?.length ?? 0);
    for (const alternative of entry.top_logprobs) bytes += 50 + alternative.token.length + 4 * (alternative.bytes?.length ?? 0);
  }
  return bytes;
}
