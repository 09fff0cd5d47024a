/**
 * Google's JSON takes a field by its proto name as well as its JSON name
 * (`system_instruction` or `systemInstruction`, `inline_data.mime_type`), and
 * Google's own curl examples use both. The document and the parser read the
 * JSON names: a body's proto names become those first. What callers name
 * themselves keeps its names: a function's `args`, a tool result's
 * `response`, JSON Schemas, `labels`, and the property names of a Schema's
 * `properties`.
 */
import { isRecord } from '../../model/is-record.js';

/** Values that are the caller's own objects, whose keys are data, not field names. */
const OPAQUE = new Set(['args', 'response', 'parametersJsonSchema', 'responseJsonSchema', 'labels', 'example', 'default']);

/** Maps from the caller's names to messages: their keys stay, their values are messages. */
const NAMED_MAPS = new Set(['properties']);

const PROTO_NAME = /_[a-z0-9]/;
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The body with proto names as JSON names; the same object when it has none (a walk, no copy: the common case).
 * @example camelCaseNames({ system_instruction: { parts: [] } }) // { systemInstruction: { parts: [] } }
 */
export function camelCaseNames(body: Record<string, unknown>): Record<string, unknown> {
  return hasProtoNames(body, false) ? (renamed(body, false) as Record<string, unknown>) : body;
}

// Walks every body, so it is a plain loop, and a key without `_` is not given to the pattern.
function hasProtoNames(value: unknown, namedMap: boolean): boolean {
  if (Array.isArray(value)) {
    for (const item of value) if (hasProtoNames(item, false)) return true;
    return false;
  }
  if (!isRecord(value)) return false;
  for (const key in value) {
    if (!namedMap && key.includes('_') && PROTO_NAME.test(key)) return true;
    if (!namedMap && OPAQUE.has(key)) continue;
    if (hasProtoNames(value[key], !namedMap && NAMED_MAPS.has(key))) return true;
  }
  return false;
}

function renamed(value: unknown, namedMap: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => renamed(item, false));
  if (!isRecord(value)) return value;
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const [key, inner] of Object.entries(value)) {
    const name = namedMap ? key : camel(key);
    // Both names sent: the first one counts.
    if (seen.has(name)) continue;
    seen.add(name);
    entries.push([name, !namedMap && OPAQUE.has(name) ? inner : renamed(inner, !namedMap && NAMED_MAPS.has(name))]);
  }
  // fromEntries defines each key as the body's own (a `__proto__` key stays data).
  return Object.fromEntries(entries);
}
