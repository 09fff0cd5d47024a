/**
 * The fast Gemini chunk frame is `head + JSON.stringify(chunk) + end`, byte for byte: for every chunk
 * shape a stream makes, and (a property test) for any text, thought flag, index and tail, and for
 * near misses of the fast shape (keys added, removed, reordered; values of other types, at any level).
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { framedChunk } from '../../../../src/dialects/gemini/chunk-json.js';

type Chunk = Record<string, unknown>;

const tail = { modelVersion: 'gemini-test', responseId: 'resp-1' };
const text = (value: unknown, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts: [{ text: value, ...extra }], role: 'model' }, index: 0 }],
  ...tail,
});
const FRAMINGS: [string, string][] = [
  ['', ''],
  ['data: ', '\r\n\r\n'],
  ['\n,\r\n', ''],
];
const slow = (chunk: Chunk, head: string, end: string) => `${head}${JSON.stringify(chunk)}${end}`;

describe('framedChunk', () => {
  test.each([
    ['a text part', text(' word')],
    ['text to escape', text('"quoted" \\ \n\u2028 \u0000 é 😀')],
    ['a thought part', text('hmm', { thought: true })],
    ['thought: false is not the fast path', text('hmm', { thought: false })],
    ['a text that is not a string', text(42)],
    ['another index', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, index: 3 }], ...tail }],
    ['usage', { ...text('x'), usageMetadata: { promptTokenCount: 1 } }],
    ['a finish reason', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: 'STOP', index: 0 }], ...tail }],
    ['two parts', { candidates: [{ content: { parts: [{ text: 'a' }, { text: 'b' }], role: 'model' }, index: 0 }], ...tail }],
    [
      'a function call',
      { candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: {} } }], role: 'model' }, index: 0 }], ...tail },
    ],
    ['an error', { error: { code: 500, message: 'x', status: 'INTERNAL' } }],
    ['another stream', { ...text('x'), modelVersion: 'other', responseId: 'resp-2' }],
  ])('%s', (_name, chunk) => {
    for (const [head, end] of FRAMINGS) {
      expect(framedChunk(chunk, head, end)).toBe(slow(chunk, head, end));
      // Twice: the second from the kept tail.
      expect(framedChunk(chunk, head, end)).toBe(slow(chunk, head, end));
    }
  });

  /** One code point, often one JSON escapes: quotes, controls, lone surrogates, U+2028, emoji. */
  const unit = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', '😀', '\ud800', '\udfff', 'é', ' '),
  );
  const words = fc.string({ unit, maxLength: 8 });
  const index = fc.oneof(fc.nat(), fc.constantFrom(-1, -0, 0.5, 2 ** 53, 1e21, NaN), fc.constant('0'));
  const odd = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>(undefined, null, true, false, 'model', 'user', [], {}, NaN, -0, () => 1),
  );
  const key = fc.constantFrom(
    'candidates',
    'content',
    'parts',
    'role',
    'text',
    'thought',
    'index',
    'modelVersion',
    'usageMetadata',
    '0',
    'x',
  );

  /** The hot shape, as the serializer builds it; then an edit of one of its levels, or none. */
  const chunk = fc
    .record({
      text: words,
      thought: fc.constantFrom<boolean | undefined>(undefined, true, false),
      index,
      modelVersion: fc.oneof(fc.constantFrom('bench', 'gemini-2.5-pro'), words),
      responseId: fc.oneof(fc.constant('resp-1'), words),
      edit: fc.option(
        fc.record({
          level: fc.constantFrom(0, 1, 2, 3),
          kind: fc.constantFrom('add', 'remove', 'set', 'reverse'),
          key,
          value: odd,
        }),
        { nil: undefined },
      ),
    })
    .map(({ text: value, thought, index: at, modelVersion, responseId, edit }) => {
      const part: Chunk = thought === undefined ? { text: value } : { text: value, thought };
      const content: Chunk = { parts: [part], role: 'model' };
      const candidate: Chunk = { content, index: at };
      const made: Chunk = { candidates: [candidate], modelVersion, responseId };
      if (edit) {
        const target = [made, candidate, content, part][edit.level];
        const keys = Object.keys(target);
        const name = keys.includes(edit.key) || edit.kind === 'add' ? edit.key : keys[0];
        if (edit.kind === 'add') target[edit.key] = edit.value;
        else if (edit.kind === 'remove') delete target[name];
        else if (edit.kind === 'set') target[name] = edit.value;
        else {
          const entries = Object.entries(target).reverse();
          for (const each of keys) delete target[each];
          for (const [each, item] of entries) target[each] = item;
        }
      }
      return made;
    });

  test('any text, thought, index and tail, and the near misses: what JSON.stringify writes', () => {
    fc.assert(
      fc.property(chunk, fc.constantFrom(...FRAMINGS), (made, [head, end]) => {
        expect(framedChunk(made, head, end)).toBe(slow(made, head, end));
      }),
      { numRuns: 5000 },
    );
  });
});
