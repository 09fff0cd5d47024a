/**
 * A custom tool's `regex` input format -> a GBNF expression for the same
 * text written inside a JSON string (the input travels as the `input`
 * argument of a Hermes tool call, so `"`, `\` and control characters appear
 * escaped). Only what converts exactly is taken: literals, `.`, character
 * classes with ranges, groups, alternation, the quantifiers `* + ? {n} {n,}
 * {n,m}` (lazy or not: the same language), and `^` / `$` at the ends (the whole
 * input must match anyway). Anything else is refused with the reason:
 * Unicode classes (`\d`, `\w`, `\s`, `\p{..}`: Unicode-aware in OpenAI's regex
 * dialect, so an ASCII reading would not be exact), word boundaries,
 * look-arounds, back-references, inline flags, possessive quantifiers.
 * The work a pattern may cause is bounded before it is done: groups nest at
 * most 32 deep (the parser recurses once per group), and the pattern unrolls
 * to at most 10,000 elements (a literal, a class range; counted repetitions
 * multiply what they repeat, `*` and `+` count once): a pattern as short as
 * `((a{1000}){1000}){1000}` stands for 10^9.
 *
 * @example regexToGbnf('[a-z]+@example\\.com') // {ok: true, expression: '( [\\u0061-\\u007A] )+ "@example.com"'}
 */

/** `tooLarge`: refused for the work it would cause, not for its form. */
export type RegexGbnf = { ok: true; expression: string } | { ok: false; why: string; tooLarge?: true };

type Range = readonly [number, number];

/** One parsed node. */
type Node =
  | { kind: 'literal'; char: number }
  | { kind: 'set'; ranges: Range[]; negated: boolean }
  | Group
  | { kind: 'repeat'; node: Node; min: number; max: number | undefined; size: number };

/** `size`: the elements it unrolls to. */
type Group = { kind: 'group'; alternatives: Node[][]; size: number };

class Refused extends Error {
  constructor(
    why: string,
    readonly tooLarge = false,
  ) {
    super(why);
  }
}

const MAX_REPEAT = 1000;
const MAX_NESTING = 32;
const MAX_ELEMENTS = 10_000;

/** The elements a node unrolls to. */
function sizeOf(node: Node): number {
  return node.kind === 'literal' ? 1 : node.kind === 'set' ? Math.max(1, node.ranges.length) : node.size;
}

export function regexToGbnf(pattern: string): RegexGbnf {
  try {
    const parser = new Parser(pattern);
    const alternatives = parser.parse();
    return { ok: true, expression: alternativesGbnf(alternatives) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, why: error.message, ...(error.tooLarge ? { tooLarge: true as const } : {}) };
    throw error;
  }
}

class Parser {
  private at = 0;
  private depth = 0;
  private readonly chars: string[];

  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  parse(): Node[][] {
    if (this.peek() === '^') this.at++;
    const { alternatives } = this.alternatives();
    if (this.at < this.chars.length) throw new Refused(`unexpected "${this.chars[this.at]}" at ${this.at}`);
    return alternatives;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private alternatives(): Group {
    const group: Group = { kind: 'group', alternatives: [], size: 0 };
    for (;;) {
      const sequence = this.sequence();
      group.alternatives.push(sequence);
      // An empty alternative is `""`, one element.
      group.size += Math.max(
        1,
        sequence.reduce((sum, node) => sum + sizeOf(node), 0),
      );
      if (group.size > MAX_ELEMENTS) throw tooManyElements();
      if (this.peek() !== '|') return group;
      this.at++;
    }
  }

  /** Refused as soon as it holds too many elements: a long flat pattern is not parsed to its end. */
  private sequence(): Node[] {
    const nodes: Node[] = [];
    let size = 0;
    for (;;) {
      if (size > MAX_ELEMENTS) throw tooManyElements();
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') return nodes;
      if (c === '$') {
        // Only at the very end: the whole input matches anyway.
        if (this.at !== this.chars.length - 1) throw new Refused('"$" other than at the end');
        this.at++;
        return nodes;
      }
      if (c === '^') throw new Refused('"^" other than at the start');
      const node = this.quantified(this.atom());
      nodes.push(node);
      size += sizeOf(node);
    }
  }

  private atom(): Node {
    const c = this.chars[this.at++];
    switch (c) {
      case '(': {
        if (this.peek() === '?') {
          if (this.peek(1) !== ':') throw new Refused('look-arounds, named groups and inline flags');
          this.at += 2;
        }
        if (++this.depth > MAX_NESTING) throw new Refused(`groups nested more than ${MAX_NESTING} deep`, true);
        const group = this.alternatives();
        if (this.chars[this.at++] !== ')') throw new Refused('an unclosed group');
        this.depth--;
        return group;
      }
      case '[':
        return this.set();
      case '.':
        return { kind: 'set', ranges: [[0x0a, 0x0a]], negated: true };
      case '\\':
        return this.escape(false);
      case '*':
      case '+':
      case '?':
      case '{':
        throw new Refused(`a quantifier "${c}" with nothing to repeat`);
      default:
        return { kind: 'literal', char: c.codePointAt(0) as number };
    }
  }

  /** After a backslash; in a class, `-` and `]` may be escaped too. */
  private escape(inClass: boolean): Node {
    const c = this.chars[this.at++];
    if (c === undefined) throw new Refused('a trailing backslash');
    const simple: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, f: 0x0c, v: 0x0b, '0': 0 };
    if (c in simple) return { kind: 'literal', char: simple[c] };
    if (c === 'x' || c === 'u') return { kind: 'literal', char: this.hexEscape(c) };
    if (/[\\.*+?()[\]{}|^$/\-#&~ "'`!,:;<=>@%_]/.test(c)) return { kind: 'literal', char: c.codePointAt(0) as number };
    if ('dwsDWS'.includes(c))
      throw new Refused(`\\${c} (a Unicode class in OpenAI's regex dialect; write the characters as a class, e.g. [0-9])`);
    if ('pP'.includes(c)) throw new Refused(`\\${c}{..} (Unicode properties)`);
    if ('bBAzZG'.includes(c)) throw new Refused(`\\${c} (anchors and word boundaries)`);
    if (/[1-9k]/.test(c)) throw new Refused('back-references');
    throw new Refused(`the escape \\${c}${inClass ? ' in a class' : ''}`);
  }

  /** `\xHH`, `\x{H..}`, `\uHHHH`, `\u{H..}`. */
  private hexEscape(kind: string): number {
    let digits = '';
    if (this.peek() === '{') {
      this.at++;
      while (this.peek() !== undefined && this.peek() !== '}') digits += this.chars[this.at++];
      this.at++;
    } else {
      const count = kind === 'x' ? 2 : 4;
      digits = this.chars.slice(this.at, this.at + count).join('');
      this.at += count;
    }
    if (!/^[0-9a-fA-F]{1,6}$/.test(digits)) throw new Refused(`a malformed \\${kind} escape`);
    const code = parseInt(digits, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Refused(`\\${kind}{${digits}} is not a character`);
    return code;
  }

  private set(): Node {
    const negated = this.peek() === '^';
    if (negated) this.at++;
    const ranges: Range[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new Refused('an unclosed class');
      if (c === ']' && !first) {
        this.at++;
        break;
      }
      first = false;
      if (ranges.length >= MAX_ELEMENTS) throw tooManyElements();
      if (c === '[') throw new Refused('nested classes and [:name:] classes');
      if ((c === '&' && this.peek(1) === '&') || (c === '-' && this.peek(1) === '-') || (c === '~' && this.peek(1) === '~'))
        throw new Refused('class set operations');
      const low = this.classChar();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.at++;
        const high = this.classChar();
        if (high < low) throw new Refused('a class range out of order');
        ranges.push([low, high]);
      } else {
        ranges.push([low, low]);
      }
    }
    return { kind: 'set', ranges, negated };
  }

  private classChar(): number {
    const c = this.chars[this.at++];
    if (c !== '\\') return c.codePointAt(0) as number;
    const node = this.escape(true);
    return (node as { char: number }).char;
  }

  private quantified(node: Node): Node {
    let min: number;
    let max: number | undefined;
    const c = this.peek();
    if (c === '*') [min, max] = [0, undefined];
    else if (c === '+') [min, max] = [1, undefined];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const close = this.chars.indexOf('}', this.at);
      const body = close < 0 ? '' : this.chars.slice(this.at + 1, close).join('');
      const match = /^(\d+)(,(\d*))?$/.exec(body);
      // Not a counted repetition: Rust's regex refuses it, and so do we.
      if (!match) throw new Refused('a "{" that is not a counted repetition');
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
      if (min > MAX_REPEAT || (max !== undefined && (max > MAX_REPEAT || max < min)))
        throw new Refused(`a repetition {${body}} (at most ${MAX_REPEAT})`);
      this.at = close;
    } else {
      return node;
    }
    this.at++;
    // Lazy matching accepts the same inputs; possessive matching does not.
    if (this.peek() === '?') this.at++;
    else if (this.peek() === '+') throw new Refused('possessive quantifiers');
    const next = this.peek();
    if (next !== undefined && '*+?{'.includes(next)) throw new Refused('a quantifier on a quantifier');
    // Repetitions multiply: the body as often as the bound says, once for `*` and `+`.
    const size = (max ?? Math.max(min, 1)) * sizeOf(node);
    if (size > MAX_ELEMENTS) throw tooManyElements();
    return { kind: 'repeat', node, min, max, size };
  }
}

function tooManyElements(): Refused {
  return new Refused(`a pattern that unrolls to more than ${MAX_ELEMENTS} elements (counted repetitions multiply what they repeat)`, true);
}

// ---- GBNF, inside a JSON string ----

/** JSON's escapes for the characters a JSON string cannot hold raw. */
const SHORT: Record<number, string> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

/** Code points that appear escaped in a JSON string. */
const ESCAPED: Range[] = [
  [0x00, 0x1f],
  [0x22, 0x22],
  [0x5c, 0x5c],
];

function jsonForm(char: number): string {
  if (SHORT[char] !== undefined) return SHORT[char];
  if (char < 0x20) return `\\u${char.toString(16).padStart(4, '0')}`;
  return String.fromCodePoint(char);
}

/** A GBNF string literal for some text. */
function gbnfLiteral(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A code point as a GBNF class item. */
function classItem(char: number): string {
  return char <= 0xffff
    ? `\\u${char.toString(16).toUpperCase().padStart(4, '0')}`
    : `\\U${char.toString(16).toUpperCase().padStart(8, '0')}`;
}

function rangeItem([low, high]: Range): string {
  return low === high ? classItem(low) : `${classItem(low)}-${classItem(high)}`;
}

/** The escaped characters that a set holds, each its JSON form. */
function escapedMembers(ranges: readonly Range[], negated: boolean): number[] {
  const members: number[] = [];
  for (const [low, high] of ESCAPED) {
    for (let char = low; char <= high; char++) {
      const inRanges = ranges.some(([a, b]) => char >= a && char <= b);
      if (inRanges !== negated) members.push(char);
    }
  }
  return members;
}

function setGbnf(ranges: readonly Range[], negated: boolean): string {
  const alternatives: string[] = [];
  if (negated) {
    alternatives.push(`[^${[...ranges, ...ESCAPED].map(rangeItem).join('')}]`);
  } else {
    const plain = ranges.flatMap((range) => withoutEscaped(range));
    if (plain.length > 0) alternatives.push(`[${plain.map(rangeItem).join('')}]`);
  }
  for (const char of escapedMembers(ranges, negated)) alternatives.push(gbnfLiteral(jsonForm(char)));
  if (alternatives.length === 0) throw new Refused('a class that admits no character');
  return alternatives.length === 1 ? alternatives[0] : `( ${alternatives.join(' | ')} )`;
}

/** A range less the characters JSON escapes. */
function withoutEscaped([low, high]: Range): Range[] {
  let pieces: Range[] = [[low, high]];
  for (const [a, b] of ESCAPED) {
    pieces = pieces.flatMap(([x, y]): Range[] => {
      if (b < x || a > y) return [[x, y]];
      const out: Range[] = [];
      if (x < a) out.push([x, a - 1]);
      if (y > b) out.push([b + 1, y]);
      return out;
    });
  }
  return pieces;
}

function nodeGbnf(node: Node): string {
  switch (node.kind) {
    case 'literal':
      return gbnfLiteral(jsonForm(node.char));
    case 'set':
      return setGbnf(node.ranges, node.negated);
    case 'group':
      return `( ${alternativesGbnf(node.alternatives)} )`;
    case 'repeat': {
      const inner = nodeGbnf(node.node);
      const item = /^\(.*\)$|^"[^"]*"$|^\[[^\]]*\]$/.test(inner) ? inner : `( ${inner} )`;
      if (node.min === 0 && node.max === undefined) return `${item}*`;
      if (node.min === 1 && node.max === undefined) return `${item}+`;
      if (node.min === 0 && node.max === 1) return `${item}?`;
      if (node.max === undefined) return `${item}{${node.min},}`;
      return node.min === node.max ? `${item}{${node.min}}` : `${item}{${node.min},${node.max}}`;
    }
  }
}

function alternativesGbnf(alternatives: readonly Node[][]): string {
  return alternatives.map((sequence) => (sequence.length === 0 ? '""' : sequence.map(nodeGbnf).join(' '))).join(' | ');
}
