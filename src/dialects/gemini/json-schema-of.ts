/**
 * Google's `Schema` (an OpenAPI 3.0 subset: upper-case types, `nullable`, `propertyOrdering`) -> the
 * JSON Schema the neutral request carries (tools' parameters, a response schema). `parametersJsonSchema`
 * and `responseJsonSchema` are JSON Schema already and go as they are.
 */
import { isRecord } from '../../model/is-record.js';

/** Keys whose value is one schema, a list of them, or a map of them. */
const ONE = ['items', 'not', 'additionalProperties'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', '$defs', 'definitions'];

/** @example jsonSchemaOf({type: 'STRING', nullable: true}) // {type: ['string', 'null']} */
export function jsonSchemaOf(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // An order of the keys in the answer, Google's own hint: JSON Schema has no place for it.
    if (key === 'propertyOrdering' || key === 'nullable') continue;
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (ONE.includes(key) && isRecord(value)) out[key] = jsonSchemaOf(value);
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((item) => (isRecord(item) ? jsonSchemaOf(item) : item));
    else if (MAP.includes(key) && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isRecord(item) ? jsonSchemaOf(item) : item]));
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
