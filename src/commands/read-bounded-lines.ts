/**
 * A stream's lines, each held to a byte bound. node:readline holds a line
 * whole however long: a 587 MB line ended `audit` with an uncaught RangeError
 * (no string is that long). Here a line past the bound is dropped as it is read
 * and reported by its length alone; the next line is read as usual.
 */

/** A line's text (without its line break), or, past the bound, only how long it was. */
export type BoundedLine = { text: string; bytes: number } | { text?: undefined; bytes: number };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Splits on `\n` (a `\r` before it is part of the break, as in `\r\n` files). `bytes` is the line's
 * length in the stream, its break included, whether or not it was read.
 * @example for await (const line of readBoundedLines(createReadStream(file), 10 * 1024 * 1024)) if (line.text === undefined) tooLong(line.bytes);
 */
export async function* readBoundedLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<BoundedLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  const take = (bytes: number): BoundedLine => {
    const line: BoundedLine = tooLong ? { bytes } : { text: text(parts, length), bytes };
    parts = [];
    length = 0;
    tooLong = false;
    return line;
  };
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    while (start < buffer.length) {
      const end = buffer.indexOf(NEWLINE, start);
      const piece = buffer.subarray(start, end === -1 ? buffer.length : end);
      length += piece.length;
      if (!tooLong && length > maxBytes) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong && piece.length > 0) parts.push(piece);
      if (end === -1) break;
      yield take(length + 1);
      start = end + 1;
    }
  }
  // A last line without a break.
  if (length > 0) yield take(length);
}

/** The line's text, without the `\r` of a `\r\n` break. */
function text(parts: Buffer[], length: number): string {
  const whole = parts.length === 1 ? parts[0] : Buffer.concat(parts, length);
  const end = whole.length > 0 && whole[whole.length - 1] === CARRIAGE_RETURN ? whole.length - 1 : whole.length;
  return whole.toString('utf8', 0, end);
}
