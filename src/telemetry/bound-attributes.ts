/**
 * What a caller sent, made small enough for a span. A model name, stop
 * sequences or messages may be megabytes, and one span that large makes a
 * collector refuse the whole export (413), with every other caller's spans in
 * it. So each string is cut at a number of bytes as exported (its UTF-8 for
 * OTLP/protobuf, its JSON escapes for http/json, whichever is more), each list
 * at a count and a total, always with a marker saying how much there was: with
 * the limits below a request's span stays under 64 KB in either protocol.
 */
import type { AttributeValue, Attributes } from '@opentelemetry/api';
import { fittingPrefix } from '../text/fitting-prefix.js';

export const SPAN_LIMITS = {
  /** One string: a model name, an answer's id (model names were cut at 256 characters before). */
  textBytes: 256,
  /** A span's status message: an error's, which may quote the caller or the backend. */
  messageBytes: 1024,
  /** One list attribute (stop sequences, finish reasons, backends tried): its items... */
  listItems: 32,
  /** ...and their bytes together. */
  listBytes: 2048,
  /** One captured content attribute (`gen_ai.input.messages`, `gen_ai.system_instructions`, `gen_ai.output.messages`). */
  contentBytes: 12 * 1024,
} as const;

/** `text` when it takes at most `maxBytes` exported; else its head that does, then `…[truncated: N chars]`. */
export function cutText(text: string, maxBytes: number): string {
  return cut(text, maxBytes).text;
}

/** `cutText` with the bytes its answer takes exported (the marker's included). */
function cut(text: string, maxBytes: number): { text: string; bytes: number } {
  const { end, bytes } = fittingPrefix(text, maxBytes, exportedBytes);
  if (end === text.length) return { text, bytes };
  const marker = `…[truncated: ${text.length} chars]`;
  return { text: `${text.slice(0, end)}${marker}`, bytes: bytes + marker.length + 2 }; // `…` is 3 bytes
}

/** A control character or a lone surrogate is `\u0001` in JSON, `"` and `\` are escaped; else the UTF-8 (protobuf's). */
function exportedBytes(code: number): number {
  if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff)) return 6;
  if (code === 0x22 || code === 0x5c) return 2;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

/** At most `listItems` strings of `textBytes` each and `listBytes` in all; then `…[truncated: N items]`. */
function cutList(items: readonly string[]): string[] {
  const kept: string[] = [];
  let room = SPAN_LIMITS.listBytes;
  for (const item of items) {
    if (kept.length === SPAN_LIMITS.listItems) break;
    const { text, bytes } = cut(item, SPAN_LIMITS.textBytes);
    if (bytes > room) break;
    kept.push(text);
    room -= bytes;
  }
  if (kept.length < items.length) kept.push(`…[truncated: ${items.length} items]`);
  return kept;
}

/** Every string cut at `textBytes`, every list as `cutList` says. */
export function boundAttributes(attributes: Attributes): Attributes {
  const bounded: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) bounded[name] = boundValue(value);
  return bounded;
}

function boundValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return cutText(value, SPAN_LIMITS.textBytes);
  if (!Array.isArray(value)) return value;
  if (value.every((item) => typeof item === 'string')) return cutList(value as string[]);
  // No list of numbers or booleans comes from a caller; capped in count all the same.
  return value.length > SPAN_LIMITS.listItems ? (value.slice(0, SPAN_LIMITS.listItems) as AttributeValue) : value;
}

/**
 * `value` as JSON of at most `maxBytes`, still JSON: its strings and lists cut
 * in order as a budget runs out (a list's end is a `…[truncated: N items]`
 * string). Escapes and markers are not counted ahead: a text that comes out
 * longer is cut again from a budget smaller in proportion.
 */
export function boundJson(value: unknown, maxBytes: number): string {
  for (let budget = maxBytes; ;) {
    const json = JSON.stringify(cutDeep(value, { bytes: budget }));
    const size = Buffer.byteLength(JSON.stringify(json)); // as http/json writes it, the larger
    if (size <= maxBytes || budget <= 0) return json;
    budget = Math.floor((budget * maxBytes) / size) - 64;
  }
}

function cutDeep(value: unknown, left: { bytes: number }): unknown {
  if (typeof value === 'string') {
    const { text, bytes } = cut(value, Math.max(0, left.bytes));
    left.bytes -= bytes + 2;
    return text;
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      if (left.bytes <= 0) {
        kept.push(`…[truncated: ${value.length} items]`);
        break;
      }
      kept.push(cutDeep(item, left));
      left.bytes -= 1;
    }
    return kept;
  }
  if (value && typeof value === 'object') {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      left.bytes -= key.length + 4;
      kept[key] = cutDeep(item, left);
    }
    return kept;
  }
  left.bytes -= 8;
  return value;
}
