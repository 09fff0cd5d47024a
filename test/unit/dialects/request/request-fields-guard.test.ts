/**
 * Guard: every top-level request property of our OpenAPI documents has a row in its field table, and back.
 * The same against the reference specs in ../shared: request-fields-specs.test.ts (the unit-slow project).
 */
import { chatFields } from '../../../../src/dialects/openai-chat/request-fields.js';
import { completionsFields } from '../../../../src/dialects/fireworks-completions/request-fields.js';
import { listRequestFields } from '../../../helpers/list-request-fields.js';

const missing = (table: object, fields: readonly string[]): string[] => fields.filter((field) => !Object.hasOwn(table, field));

describe('our OpenAPI documents (config/openapi)', () => {
  it('every chat request property has a row in chatFields', () => {
    expect(missing(chatFields, listRequestFields('chat'))).toEqual([]);
  });
  it('every completions request property has a row in completionsFields', () => {
    expect(missing(completionsFields, listRequestFields('text'))).toEqual([]);
  });
  it('every row is a property of the document (no row for a field validation would refuse)', () => {
    expect(missing(Object.fromEntries(listRequestFields('chat').map((field) => [field, 1])), Object.keys(chatFields))).toEqual([]);
    expect(missing(Object.fromEntries(listRequestFields('text').map((field) => [field, 1])), Object.keys(completionsFields))).toEqual([]);
  });
});
