import { describeAllowed, describeValue } from '../../../src/validation/describe-schema.js';

describe('describeAllowed', () => {
  it.each([
    [[{ type: 'number', nullable: true }], 'a number or null'],
    [[{ type: 'integer' }], 'an integer'],
    [[{ enum: ['any', 'all', null] }], "one of: 'any', 'all', null"],
    [[{ enum: ['developer'] }], "'developer'"],
    [
      [{ type: 'string' }, { type: 'array', items: { type: 'array', items: { type: 'integer' } } }],
      'a string or an array of integer arrays',
    ],
    [
      [
        { type: 'object', properties: { type: { enum: ['enabled'] } } },
        { type: 'object', nullable: true, enum: [null] },
      ],
      "an object with type 'enabled' or null",
    ],
    [[{ anyOf: [{ type: 'string', enum: ['low', null], nullable: true }, { type: 'boolean' }] }], "one of: 'low', a boolean, null"],
  ])('%j -> %s', (schemas, phrase) => {
    expect(describeAllowed(schemas)).toBe(phrase);
  });
});

describe('describeValue', () => {
  it.each([
    ['hot', "'hot'"],
    [3, '3'],
    [null, 'null'],
    [[1], 'an array'],
    [{}, 'an object'],
    [{ type: 'x' }, "an object with type 'x'"],
    ['x'.repeat(50), `'${'x'.repeat(40)}...'`],
  ])('%j -> %s', (value, phrase) => {
    expect(describeValue(value)).toBe(phrase);
  });
});
