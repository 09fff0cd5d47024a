/**
 * `response_format` (OpenAI and Fireworks shapes) -> neutral ResponseFormat.
 * OpenAI: `{type: 'json_schema', json_schema: {name, description?, schema?, strict?}}`.
 * Fireworks also takes the schema itself as `json_schema` or `schema` (an object
 * or JSON text), a schema on `json_object`, and `{type: 'grammar', grammar}`.
 */
import { isRecord } from '../model/is-record.js';
import { invalidRequest } from '../errors/proxy-error.js';
import type { ResponseFormat } from '../model/request.js';
import { isSet } from '../model/is-set.js';

type Wire = Record<string, unknown>;

const FORMAT_KEYS = new Set(['type', 'schema', 'json_schema', 'grammar']);
const WRAPPER_KEYS = new Set(['name', 'description', 'schema', 'strict']);

/** @example parseResponseFormat({type: 'json_object'}) // {type: 'json_object'} */
export function parseResponseFormat(value: unknown, field = 'response_format'): ResponseFormat {
  if (!isRecord(value)) throw invalidRequest(field, `${field} must be an object with a type.`);
  for (const key of Object.keys(value)) {
    if (!FORMAT_KEYS.has(key) && isSet(value[key])) throw invalidRequest(`${field}.${key}`, `Unrecognized ${field} field: ${key}.`);
  }
  switch (value.type) {
    case 'text':
      onlyType(value, field, 'text');
      return { type: 'text' };
    case 'json_object': {
      const schema = plainSchema(value, field);
      return schema ? { type: 'json_object', schema } : { type: 'json_object' };
    }
    case 'json_schema':
      return jsonSchema(value, field);
    case 'grammar':
      // Fireworks' schema makes every key but `type` optional: a grammar format without a grammar has nothing to enforce.
      if (typeof value.grammar !== 'string')
        throw invalidRequest(
          `${field}.grammar`,
          `${field} of type grammar without a grammar is not supported by this proxy: there is nothing to enforce; send the GBNF grammar as ${field}.grammar.`,
        );
      if (isSet(value.schema) || isSet(value.json_schema))
        throw invalidRequest(`${field}.type`, `${field} of type grammar takes no schema.`);
      return { type: 'grammar', grammar: value.grammar };
    default:
      throw invalidRequest(`${field}.type`, `${field}.type must be one of text, json_object, json_schema, grammar.`);
  }
}

function onlyType(value: Wire, field: string, type: string): void {
  for (const key of ['schema', 'json_schema', 'grammar']) {
    if (isSet(value[key]))
      throw invalidRequest(
        `${field}.${key}`,
        `${field}.${key} with type ${type} is not supported by this proxy: plain text follows no ${key === 'grammar' ? 'grammar' : 'schema'}; use type ${key === 'grammar' ? 'grammar' : 'json_object or json_schema'}.`,
      );
  }
}

function jsonSchema(value: Wire, field: string): ResponseFormat {
  if (isSet(value.grammar)) throw invalidRequest(`${field}.grammar`, `${field}.grammar is not allowed when type is json_schema.`);
  const wrapper = value.json_schema;
  // OpenAI's wrapper carries a `name` or a `schema`; neither is a JSON Schema keyword, so a bare schema has neither.
  if (isRecord(wrapper) && (typeof wrapper.name === 'string' || isRecord(wrapper.schema))) {
    if (isSet(value.schema)) throw invalidRequest(`${field}.schema`, `${field}.schema cannot be combined with ${field}.json_schema.`);
    for (const key of Object.keys(wrapper)) {
      if (!WRAPPER_KEYS.has(key) && isSet(wrapper[key]))
        throw invalidRequest(`${field}.json_schema.${key}`, `Unrecognized ${field}.json_schema field: ${key}.`);
    }
    // OpenAI's schema is optional; an empty schema accepts any JSON, which is what its absence means.
    const schema = isSet(wrapper.schema) ? toSchema(wrapper.schema, `${field}.json_schema.schema`) : {};
    const out: ResponseFormat = { type: 'json_schema', schema };
    if (typeof wrapper.name === 'string') out.name = wrapper.name;
    if (typeof wrapper.description === 'string') out.description = wrapper.description;
    if (typeof wrapper.strict === 'boolean') out.strict = wrapper.strict;
    return out;
  }
  const schema = plainSchema(value, field);
  if (!schema)
    throw invalidRequest(
      `${field}.json_schema`,
      `${field} of type json_schema without a schema is not supported by this proxy: send the schema as ${field}.json_schema (or use type json_object for any JSON).`,
    );
  return { type: 'json_schema', schema };
}

/** Fireworks' bare schema, under `json_schema` or `schema` (not both). */
function plainSchema(value: Wire, field: string): Record<string, unknown> | undefined {
  if (isSet(value.grammar)) throw invalidRequest(`${field}.grammar`, `${field}.grammar is only allowed when type is grammar.`);
  if (isSet(value.schema) && isSet(value.json_schema)) {
    throw invalidRequest(`${field}.schema`, `${field}.schema cannot be combined with ${field}.json_schema.`);
  }
  if (isSet(value.json_schema)) return toSchema(value.json_schema, `${field}.json_schema`);
  if (isSet(value.schema)) return toSchema(value.schema, `${field}.schema`);
  return undefined;
}

/** An object, or JSON text holding one (Fireworks accepts both). */
function toSchema(value: unknown, param: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidRequest(
        param,
        `${param} as text that is not JSON is not supported by this proxy: give the schema as an object, or as JSON text.`,
      );
    }
    if (isRecord(parsed)) return parsed;
  }
  throw invalidRequest(
    param,
    `${param} that is not a JSON Schema object is not supported by this proxy: give the schema as an object, or as JSON text of one.`,
  );
}
