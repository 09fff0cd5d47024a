/**
 * A tool's JSON Schema -> Google's `Schema` (the OpenAPI subset that a
 * function's `parameters` takes), for backends set to `toolSchemas: parameters`.
 * Rewritten where the meaning is kept exactly:
 *  - `const` of a string -> a one-value `enum` (Gemini's enums hold strings);
 *  - `$ref` to `#/$defs/...` or `#/definitions/...` -> the definition inlined (not
 *    when it refers to itself, directly or not); the definitions then go;
 *  - `type: [T, "null"]` -> `type: T, nullable: true`;
 *  - `$schema`, `$id`, `$comment`: annotations that constrain nothing, left out.
 * Any other keyword `Schema` lacks (`additionalProperties`, `oneOf`, `allOf`, `not`,
 * `patternProperties`...) is a 400 naming it: dropping it would loosen the schema.
 */
import { unsupportedParameter } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';

/** The fields of Google's Schema type (ai.google.dev/api/caching#Schema). */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** Annotations only: no value is accepted or refused because of them. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment']);
const DEFINITIONS = new Set(['$defs', 'definitions']);

type Schema = Record<string, unknown>;

/**
 * A refusal names the caller's tools field and the function by name, with the
 * keyword's place in its schema: the schema's own path differs by dialect
 * (`function.parameters`, `input_schema`, `functionDeclarations[i]`), its name does not.
 * @param owner the caller's field of the tools (`tools`) and the function's name
 * @example toGoogleSchema({type: 'object', properties: {unit: {const: 'C'}}}, {param: 'tools', tool: 'f'})
 * // {type: 'object', properties: {unit: {type: 'string', enum: ['C']}}}
 */
export function toGoogleSchema(schema: Schema, owner: Owner): Schema {
  const definitions: Schema = {};
  for (const key of DEFINITIONS) if (isRecord(schema[key])) Object.assign(definitions, schema[key]);
  return rewrite(schema, { owner, path: '', definitions, resolving: [] });
}

interface Owner {
  /** The caller's field of the tools. */
  param: string;
  /** The function whose parameters these are. */
  tool: string;
}

interface Scope {
  owner: Owner;
  /** Where in the schema we are (`properties.unit`). */
  path: string;
  definitions: Schema;
  /** The `$ref`s being inlined on the way here: meeting one again is a recursion. */
  resolving: string[];
}

function rewrite(schema: Schema, scope: Scope): Schema {
  if (typeof schema.$ref === 'string') return inline(schema, scope);
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = { ...scope, path: joined(scope.path, key) };
    if (ANNOTATIONS.has(key) || DEFINITIONS.has(key)) continue;
    if (key === 'const') {
      if (typeof value !== 'string') throw refused(at, 'a const that is not a string (Gemini enums hold strings only)');
      if (schema.enum !== undefined) throw refused(at, 'const together with enum');
      out.enum = [value];
      out.type ??= 'string';
      continue;
    }
    if (!SCHEMA_KEYS.has(key)) throw refused(at, `the keyword ${key}`);
    out[key] = rewriteValue(key, value, at);
  }
  if (Array.isArray(out.type)) nullableType(out, { ...scope, path: joined(scope.path, 'type') });
  return out;
}

function rewriteValue(key: string, value: unknown, scope: Scope): unknown {
  switch (key) {
    case 'properties':
      if (!isRecord(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [
          name,
          isRecord(sub) ? rewrite(sub, { ...scope, path: joined(scope.path, name) }) : sub,
        ]),
      );
    case 'items':
      if (Array.isArray(value)) throw refused(scope, 'items as a list (tuple validation)');
      return isRecord(value) ? rewrite(value, scope) : value;
    case 'anyOf':
      return Array.isArray(value)
        ? value.map((sub, i) => (isRecord(sub) ? rewrite(sub, { ...scope, path: `${scope.path}[${i}]` }) : sub))
        : value;
    default:
      return value;
  }
}

/** `{$ref: '#/$defs/Name'}` -> the definition, rewritten; siblings of the `$ref` join it. */
function inline(schema: Schema, scope: Scope): Schema {
  const ref = schema.$ref as string;
  const at = { ...scope, path: joined(scope.path, '$ref') };
  const name = /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(ref)?.[1];
  const target = name === undefined ? undefined : scope.definitions[name];
  if (!isRecord(target)) throw refused(at, `a $ref other than #/$defs/<name> or #/definitions/<name> (${ref})`);
  if (scope.resolving.includes(ref)) throw refused(at, `a recursive $ref (${ref})`);
  const { $ref: _ref, ...siblings } = schema;
  return rewrite({ ...target, ...siblings }, { ...scope, resolving: [...scope.resolving, ref] });
}

/** `type: ['string', 'null']` -> `type: 'string', nullable: true`; any other list has no Schema form. */
function nullableType(out: Schema, at: Scope): void {
  const types = out.type as unknown[];
  const others = types.filter((type) => type !== 'null');
  if (others.length !== 1 || types.length !== 2) throw refused(at, 'a list of types other than [T, "null"]');
  out.type = others[0];
  out.nullable = true;
}

const joined = (path: string, key: string) => (path ? `${path}.${key}` : key);

function refused({ owner, path }: Scope, what: string) {
  return unsupportedParameter(
    owner.param,
    `${owner.param}: the parameters of function "${owner.tool}" use ${what}${path ? ` (at ${path})` : ''}, which Gemini's function parameters do not support (toolSchemas: parameters); send the schema without it, or set the backend's toolSchemas to parametersJsonSchema.`,
  );
}
