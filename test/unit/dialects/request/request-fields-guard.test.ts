/**
 * Guard: every top-level request property of our OpenAPI documents has a row in its field table, and back.
 * The same against the reference specs in ../shared: request-fields-specs.test.ts (the unit-slow project).
 */
import { chatFields } from '../../../../src/dialects/openai-chat/request-fields.js';
import { completionsFields } from '../../../../src/dialects/fireworks-completions/request-fields.js';
import { geminiFields, OPENED_OBJECTS } from '../../../../src/dialects/gemini/request-fields.js';
import { loadOpenapiDocument } from '../../../../src/validation/load-openapi-document.js';
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

describe('the Gemini document (config/openapi/gemini.yaml)', () => {
  /** Its request properties, the option objects opened into dotted fields as the table has them. */
  function geminiWireFields(): string[] {
    const document = loadOpenapiDocument('gemini');
    const schemas = (document.components as { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> }).schemas;
    const resolve = (node: Record<string, unknown>) =>
      typeof node.$ref === 'string'
        ? schemas[node.$ref.split('/').pop() as string]
        : (node as { properties?: Record<string, Record<string, unknown>> });
    const fields: string[] = [];
    const walk = (node: { properties?: Record<string, Record<string, unknown>> }, prefix: string) => {
      for (const [name, property] of Object.entries(node.properties ?? {})) {
        const field = prefix + name;
        if ((OPENED_OBJECTS as readonly string[]).includes(field)) walk(resolve(property), `${field}.`);
        else fields.push(field);
      }
    };
    walk(schemas.GenerateContentRequest, '');
    return fields;
  }

  it('every field, opened objects included, has a row in geminiFields, and back', () => {
    const wire = geminiWireFields();
    expect(missing(geminiFields, wire)).toEqual([]);
    expect(missing(Object.fromEntries(wire.map((field) => [field, 1])), Object.keys(geminiFields))).toEqual([]);
  });
});
