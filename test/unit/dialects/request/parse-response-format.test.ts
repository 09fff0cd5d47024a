/** dialects/parse-response-format.ts: OpenAI and Fireworks response_format shapes -> one neutral ResponseFormat. */
import { parseResponseFormat } from '../../../../src/dialects/parse-response-format.js';
import { paramOf } from './expect-param.js';

const schema = { type: 'object', properties: { a: { type: 'integer' } } };

describe('parseResponseFormat', () => {
  it.each([
    ['text', { type: 'text' }, { type: 'text' }],
    ['json_object', { type: 'json_object' }, { type: 'json_object' }],
    ['Fireworks json_object with a schema', { type: 'json_object', schema }, { type: 'json_object', schema }],
    [
      'OpenAI json_schema wrapper',
      { type: 'json_schema', json_schema: { name: 'thing', description: 'A thing', schema, strict: true } },
      { type: 'json_schema', name: 'thing', description: 'A thing', schema, strict: true },
    ],
    // OpenAI makes the schema optional: an empty schema accepts any JSON, as its absence does.
    [
      'OpenAI wrapper without schema',
      { type: 'json_schema', json_schema: { name: 'anything' } },
      { type: 'json_schema', name: 'anything', schema: {} },
    ],
    ['Fireworks bare schema under json_schema', { type: 'json_schema', json_schema: schema }, { type: 'json_schema', schema }],
    ['Fireworks bare schema under schema', { type: 'json_schema', schema }, { type: 'json_schema', schema }],
    ['Fireworks schema as JSON text', { type: 'json_schema', json_schema: JSON.stringify(schema) }, { type: 'json_schema', schema }],
    ['Fireworks grammar', { type: 'grammar', grammar: 'root ::= "yes"' }, { type: 'grammar', grammar: 'root ::= "yes"' }],
    ['Fireworks nulls are unset', { type: 'text', schema: null, grammar: null, json_schema: null }, { type: 'text' }],
  ])('%s', (_name, wire, expected) => {
    expect(parseResponseFormat(wire)).toEqual(expected);
  });

  it.each([
    ['unknown type', { type: 'yaml' }, 'response_format.type'],
    ['grammar missing', { type: 'grammar' }, 'response_format.grammar'],
    ['grammar with a schema', { type: 'grammar', grammar: 'g', schema }, 'response_format.type'],
    ['json_schema missing', { type: 'json_schema' }, 'response_format.json_schema'],
    ['schema and json_schema', { type: 'json_schema', schema, json_schema: schema }, 'response_format.schema'],
    ['schema on text', { type: 'text', schema }, 'response_format.schema'],
    ['grammar on json_object', { type: 'json_object', grammar: 'g' }, 'response_format.grammar'],
    ['invalid JSON text', { type: 'json_schema', json_schema: '{nope' }, 'response_format.json_schema'],
    ['JSON text of a non-object', { type: 'json_schema', schema: '[1]' }, 'response_format.schema'],
    ['unknown wrapper key', { type: 'json_schema', json_schema: { name: 'x', schema, format: 'y' } }, 'response_format.json_schema.format'],
    ['unknown key', { type: 'text', strict: true }, 'response_format.strict'],
    ['not an object', 'json', 'response_format'],
  ])('%s -> 400', (_name, wire, param) => {
    expect(paramOf(() => parseResponseFormat(wire))).toBe(param);
  });
});
