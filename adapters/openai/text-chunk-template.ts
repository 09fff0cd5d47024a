/**
 * Most chunks of a stream differ from the one before only in their text:
 * `{"id":..,"choices":[{"index":0,"delta":{"content":" word"},..}]}`. Once
 * the full reader has turned such a chunk into exactly one text delta, the
 * bytes around its text are the template: a later chunk with the same bytes
 * around a different JSON string is that chunk with other text, and is read
 * without JSON.parse. (Swapping one string token for another keeps the rest
 * of the JSON as it was, so the full reader would give the same event.)
 */
export class TextChunkTemplate {
  private prefix?: string;
  private suffix = '';
  /** The choice the template's text belongs to. */
  choice = 0;

  /** The text of a chunk shaped as the template, else undefined (read it in full). */
  textOf(data: string): string | undefined {
    const { prefix, suffix } = this;
    if (prefix === undefined) return undefined;
    const start = prefix.length;
    const end = data.length - suffix.length; // the closing quote is at end - 1
    if (end - start < 3 || data.charCodeAt(start) !== QUOTE || data.charCodeAt(end - 1) !== QUOTE) return undefined;
    // Compared as slices: V8's startsWith with a search string that is not a constant costs ten times more.
    if (data.slice(0, start) !== prefix || data.slice(end) !== suffix) return undefined;
    let escaped = false;
    for (let i = start + 1; i < end - 1; i++) {
      const code = data.charCodeAt(i);
      if (code === QUOTE || code < 0x20) return undefined; // not one string token
      if (code === BACKSLASH) {
        escaped = true;
        i++; // an escaped character, even a quote
      }
    }
    if (!escaped) return data.slice(start + 1, end - 1);
    const token = data.slice(start, end);
    return STRING_TOKEN.test(token) ? (JSON.parse(token) as string) : undefined;
  }

  /**
   * `data` was read in full as one text delta of `choice` with `text` (and nothing else).
   * It becomes the template when its text token is found once, as the value of `content` or
   * `text`, and is the token the reader reads (`readText` of the chunk with a marker there).
   */
  learn(data: string, choice: number, text: string, readText: (chunk: unknown) => unknown): void {
    if (text === MARKER) return;
    const token = JSON.stringify(text);
    // Compact JSON, or Python's json.dumps spacing (`"content": "..."`).
    const end = KEYS.reduce<number | undefined>((found, key) => found ?? uniqueEnd(data, key + token), undefined);
    if (end === undefined) return;
    const prefix = data.slice(0, end - token.length);
    const suffix = data.slice(end);
    if (readText(JSON.parse(prefix + JSON.stringify(MARKER) + suffix)) !== MARKER) return;
    this.prefix = prefix;
    this.suffix = suffix;
    this.choice = choice;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One JSON string token, and nothing else (no raw control characters, valid escapes). */
// eslint-disable-next-line no-control-regex -- raw control characters are what a JSON string may not hold
const STRING_TOKEN = /^"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$/;

const KEYS = ['"content":', '"content": ', '"text":', '"text": '];

/** A text no model sends, put where the template's text was to check which token the reader reads. */
const MARKER = '\u0000template';

/** Where `needle` ends in `data`, when it occurs there exactly once. */
function uniqueEnd(data: string, needle: string): number | undefined {
  const first = data.indexOf(needle);
  if (first < 0 || data.indexOf(needle, first + 1) >= 0) return undefined;
  return first + needle.length;
}
