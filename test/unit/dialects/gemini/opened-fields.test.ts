/**
 * openedFields (parse-request.ts, built for speed) gives what the plain way gives, keys in the same
 * order and values the same, for any body: known and unknown fields, members of no row, a dotted
 * field beside its opened object, integer-like keys, `__proto__`, opened objects that are not objects.
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { isRecord } from '../../../../src/model/is-record.js';
import { openedFields } from '../../../../src/dialects/gemini/parse-request.js';
import { geminiFields, OPENED_OBJECTS } from '../../../../src/dialects/gemini/request-fields.js';

const ROW_ORDER = new Map(Object.keys(geminiFields).map((field, i) => [field, i]));

/** The plain way: a copy, each opened object deleted and its members added, then a stable sort by row. */
function plainOpenedFields(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...body };
  for (const name of OPENED_OBJECTS) {
    const value = flat[name];
    if (!isRecord(value)) continue;
    delete flat[name];
    for (const [key, item] of Object.entries(value)) flat[`${name}.${key}`] = item;
  }
  const rank = (field: string) => ROW_ORDER.get(field) ?? ROW_ORDER.size;
  return Object.fromEntries(Object.entries(flat).sort(([a], [b]) => rank(a) - rank(b)));
}

const rows = Object.keys(geminiFields);
const members = (name: string) => rows.filter((field) => field.startsWith(`${name}.`)).map((field) => field.slice(name.length + 1));
const oddKeys = ['unknown', 'x.y', '0', '7', '__proto__', 'thinkingConfig', 'temperature'];
const value = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }));
const membersOf = (keys: string[], inner?: fc.Arbitrary<unknown>) =>
  fc.dictionary(fc.constantFrom(...keys, ...oddKeys), inner ? fc.oneof(value, inner) : value, { maxKeys: 6 });
const thinkingConfig = membersOf(members('generationConfig.thinkingConfig'));
const generationConfig = membersOf([...members('generationConfig'), 'thinkingConfig'], thinkingConfig);
const toolConfig = membersOf(members('toolConfig'));
const body = fc.dictionary(
  fc.constantFrom(...rows, ...OPENED_OBJECTS, ...oddKeys),
  fc.oneof({ weight: 3, arbitrary: value }, generationConfig, toolConfig),
  { maxKeys: 10 },
);

describe('openedFields', () => {
  test('a body of known fields, in the table order', () => {
    const opened = openedFields({
      generationConfig: { thinkingConfig: { includeThoughts: true }, maxOutputTokens: 64, temperature: 0.5 },
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      tools: [],
      contents: [],
    });
    expect(Object.entries(opened)).toEqual([
      ['contents', []],
      ['tools', []],
      ['toolConfig.functionCallingConfig', { mode: 'AUTO' }],
      ['generationConfig.temperature', 0.5],
      ['generationConfig.maxOutputTokens', 64],
      ['generationConfig.thinkingConfig.includeThoughts', true],
    ]);
  });

  test('what the plain way gives, for any body', () => {
    fc.assert(
      fc.property(body, (wire) => {
        const fast = openedFields(wire);
        const plain = plainOpenedFields(wire);
        expect(Object.keys(fast)).toEqual(Object.keys(plain));
        expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
        for (const key of Object.keys(plain)) expect(fast[key]).toBe(plain[key]);
      }),
      { numRuns: 2000 },
    );
  });
});
