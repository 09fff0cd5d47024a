/**
 * How much of a string fits a byte budget once written: the log (logging/logger.ts), the span
 * exporter (telemetry/bound-attributes.ts) and the errors that repeat a caller's model name
 * (errors/catalogue.ts) cut callers' text this way, each with its own size of a character written
 * (what its format escapes).
 */

/** The bytes one UTF-16 unit takes written (a surrogate pair is counted 4, apart). */
export type WrittenSize = (code: number) => number;

/**
 * How many UTF-16 units of `text` take at most `maxBytes` written, and their bytes; reads no further.
 * @example fittingPrefix('héllo', 3, (code) => (code < 0x80 ? 1 : 2)) // {end: 2, bytes: 3}
 */
export function fittingPrefix(text: string, maxBytes: number, sizeOf: WrittenSize): { end: number; bytes: number } {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const next = text.charCodeAt(end + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    const size = pair ? 4 : sizeOf(code);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return { end, bytes };
}
