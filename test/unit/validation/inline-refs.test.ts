import { inlineRefs } from '../../../src/validation/inline-refs.js';

describe('inlineRefs', () => {
  it('replaces each $ref with its own copy of the target', () => {
    const document = {
      a: { $ref: '#/defs/x' },
      b: { items: { $ref: '#/defs/x' } },
      defs: { x: { type: 'string', c: { $ref: '#/defs/y' } }, y: { type: 'integer' } },
    };
    const inlined = inlineRefs(document);
    expect(inlined.a).toEqual({ type: 'string', c: { type: 'integer' } });
    expect(inlined.b.items).toEqual(inlined.a);
    expect(inlined.b.items).not.toBe(inlined.a);
    expect(document.a).toEqual({ $ref: '#/defs/x' });
  });

  it('refuses recursive, remote and dangling refs', () => {
    expect(() => inlineRefs({ a: { $ref: '#/a' } })).toThrow(/Recursive/);
    expect(() => inlineRefs({ a: { $ref: 'other.yaml#/a' } })).toThrow(/local/);
    expect(() => inlineRefs({ a: { $ref: '#/missing' } })).toThrow(/Unresolvable/);
  });
});
