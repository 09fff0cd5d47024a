/**
 * How much a request body holds, bounded before it is parsed
 * (`limits.jsonValues`, `limits.jsonContainers`): for some shapes of 10 MB,
 * JSON.parse alone blocks every other request for seconds (5 million token
 * ids: 0.5 s; 2.6 million empty objects: 1.5 s; 400,000 distinct keys: 1 s),
 * for others (text) a few milliseconds. The bytes are counted as they arrive,
 * a chunk at a time, jumping through strings: no one step of it takes long, and
 * past a budget the rest of the body is neither kept nor counted. A body a
 * host's parser already read is counted as it is.
 */
import type { ProxyLimits } from '../../config/settings.js';
import { limitExceeded } from '../../errors/catalogue.js';

export type JsonBudget = Pick<ProxyLimits, 'jsonValues' | 'jsonContainers'>;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;
/** The most of a top-level key kept to name it in an error: its first bytes, from its first chunks. */
const KEY_BYTES = 200;
const KEY_PIECES = 4;

/**
 * Counts a body's UTF-8 bytes, given in chunks in order: every string, literal,
 * `{` and `[` is a value, every `{` and `[` a container, and each `:` turns the
 * string before it from a value into a key. Only ASCII bytes are looked at (no
 * byte of a multi-byte character is one), so a chunk may end anywhere. Bytes
 * that are not JSON are counted as far as they go: JSON.parse reports them.
 * @example const counter = new JsonBudgetCounter(limits); request.on('data', (chunk) => counter.write(chunk));
 */
export class JsonBudgetCounter {
  private values = 0;
  private containers = 0;
  private depth = 0;
  private inString = false;
  private inLiteral = false;
  /** Backslashes that ended the last piece inside a string: an odd run escapes a quote that starts the next. */
  private backslashes = 0;
  /** The start of the string being read at the top level (a key, when a `:` follows), and of the last top-level key. */
  private string: Buffer[] = [];
  private key: Buffer[] | null = null;

  /** `jsonDepth` too: the text's nesting is bounded as it is read (json-depth.ts checks a host's parsed body). */
  constructor(private readonly limits: JsonBudget & Pick<ProxyLimits, 'jsonDepth'>) {}

  /** Throws a 400 naming the top-level field where the body passes either budget. */
  write(text: Buffer): void {
    let i = 0;
    if (this.inString) i = this.skipString(text, 0);
    if (this.inLiteral) i = this.skipLiteral(text, i);
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1) this.string = [];
        i = this.skipString(text, i + 1) - 1;
        this.value();
      } else if (c === COLON) {
        this.values--;
        if (this.depth === 1) this.key = this.string;
        this.container();
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (++this.depth > this.limits.jsonDepth) throw this.tooDeep();
        this.container();
        this.value();
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        this.depth--;
      } else if (c > SPACE && c !== COMMA) {
        // A number, true, false or null: one value, however long.
        this.inLiteral = true;
        i = this.skipLiteral(text, i + 1) - 1;
        this.value();
      }
    }
  }

  /** Where the string that `text` is in ends (after its closing quote), or `text.length` when it goes on. */
  private skipString(text: Buffer, from: number): number {
    let at = from;
    for (;;) {
      const quote = text.indexOf(QUOTE, at);
      if (quote === -1) {
        this.keep(text, from, text.length);
        let run = 0;
        while (run < text.length - from && text[text.length - 1 - run] === BACKSLASH) run++;
        this.backslashes = run === text.length - from && from === 0 ? this.backslashes + run : run;
        return text.length;
      }
      let run = 0;
      while (quote - run > from && text[quote - 1 - run] === BACKSLASH) run++;
      if (quote - run === 0 && from === 0) run += this.backslashes;
      if (run % 2 === 0) {
        this.keep(text, from, quote);
        this.inString = false;
        this.backslashes = 0;
        return quote + 1;
      }
      at = quote + 1;
    }
  }

  private skipLiteral(text: Buffer, from: number): number {
    let at = from;
    while (at < text.length && !endsLiteral(text[at])) at++;
    if (at < text.length) this.inLiteral = false;
    return at;
  }

  /** Keeps the start of a top-level string: it may be the key an error names. */
  private keep(text: Buffer, from: number, to: number): void {
    if (this.depth === 1 && this.string.length < KEY_PIECES)
      this.string.push(Buffer.from(text.subarray(from, Math.min(to, from + KEY_BYTES))));
  }

  private value(): void {
    if (++this.values > this.limits.jsonValues) throw tooMuch(this.field(), 'jsonValues', this.limits.jsonValues);
  }

  private container(): void {
    if (++this.containers > this.limits.jsonContainers) throw tooMuch(this.field(), 'jsonContainers', this.limits.jsonContainers);
  }

  private tooDeep() {
    const field = this.field();
    const where = field === null ? '' : ` (in ${field})`;
    return limitExceeded(field, `The request body nests deeper than ${this.limits.jsonDepth} levels${where}`, 'limits.jsonDepth');
  }

  /** The top-level field being read: its key's escapes read where they are whole. */
  private field(): string | null {
    if (this.key === null) return null;
    const key = Buffer.concat(this.key).subarray(0, KEY_BYTES).toString('utf8');
    try {
      return JSON.parse(`"${key}"`) as string;
    } catch {
      return key;
    }
  }
}

function endsLiteral(c: number): boolean {
  return c <= SPACE || c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || c === QUOTE;
}

/** The same counts over a body a host's JSON parser made, walked with a stack of its own; the top-level field travels with each container. */
export function checkJsonBudget(body: unknown, limits: JsonBudget): void {
  let values = 1;
  let containers = 0;
  if (values > limits.jsonValues) throw tooMuch(null, 'jsonValues', limits.jsonValues);
  const stack: { value: object; key: string | null }[] = [];
  if (typeof body === 'object' && body !== null) stack.push({ value: body, key: null });
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { value, key } = frame;
    if (++containers > limits.jsonContainers) throw tooMuch(key, 'jsonContainers', limits.jsonContainers);
    if (Array.isArray(value)) {
      values += value.length;
      if (values > limits.jsonValues) throw tooMuch(key, 'jsonValues', limits.jsonValues);
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push({ value: item, key });
      continue;
    }
    for (const name in value) {
      const field = key ?? name;
      if (++values > limits.jsonValues) throw tooMuch(field, 'jsonValues', limits.jsonValues);
      if (++containers > limits.jsonContainers) throw tooMuch(field, 'jsonContainers', limits.jsonContainers);
      const item = (value as Record<string, unknown>)[name];
      if (typeof item === 'object' && item !== null) stack.push({ value: item, key: field });
    }
  }
}

function tooMuch(field: string | null, limit: 'jsonValues' | 'jsonContainers', bound: number) {
  const what = limit === 'jsonValues' ? `${bound} JSON values` : `${bound} objects, arrays and keys`;
  return limitExceeded(
    field,
    `The request body holds more than ${what}${field === null ? '' : ` (past the bound in ${field})`}`,
    `limits.${limit}`,
  );
}
