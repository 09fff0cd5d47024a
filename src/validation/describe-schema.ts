/**
 * Short English for what a schema (or a union of schemas) accepts, and for a
 * received value: "a number or null", "one of: 'low', 'high', an integer".
 */

type Schema = Record<string, unknown>;

const TYPE_PHRASES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

const PLURALS: Record<string, string> = {
  string: 'strings',
  integer: 'integers',
  number: 'numbers',
  boolean: 'booleans',
  object: 'objects',
};

function asSchema(value: unknown): Schema | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function quote(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  return String(value);
}

function pluralOf(items: Schema | undefined): string {
  const type = items?.type;
  if (type === 'array') {
    const inner = asSchema(items?.items)?.type;
    return typeof inner === 'string' && inner in PLURALS ? `${inner} arrays` : 'arrays';
  }
  return typeof type === 'string' ? (PLURALS[type] ?? 'items') : 'items';
}

function typePhrase(schema: Schema): string | undefined {
  const { type } = schema;
  if (type === 'array') return `an array of ${pluralOf(asSchema(schema.items))}`;
  if (type === 'object') {
    const tag = asSchema(asSchema(schema.properties)?.type)?.enum;
    if (Array.isArray(tag) && tag.length === 1) return `an object with type ${quote(tag[0])}`;
  }
  return typeof type === 'string' ? TYPE_PHRASES[type] : undefined;
}

function collect(schema: Schema, phrases: string[]): boolean {
  let nullable = false;
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) {
      if (value === null) nullable = true;
      else phrases.push(quote(value));
    }
    return nullable;
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (schema.type === undefined && Array.isArray(union)) {
    for (const branch of union) nullable = collectUnknown(branch, phrases) || nullable;
    return nullable;
  }
  const phrase = typePhrase(schema);
  if (phrase) phrases.push(phrase);
  return schema.nullable === true;
}

function collectUnknown(value: unknown, phrases: string[]): boolean {
  const schema = asSchema(value);
  return schema ? collect(schema, phrases) : false;
}

/**
 * What the given alternatives accept, in one phrase.
 *
 * @example describeAllowed([{ type: 'number', nullable: true }]) // 'a number or null'
 */
export function describeAllowed(schemas: readonly unknown[]): string {
  const phrases: string[] = [];
  let nullable = false;
  for (const schema of schemas) nullable = collectUnknown(schema, phrases) || nullable;
  const all = [...new Set(phrases)];
  if (nullable) all.push('null');
  if (all.length === 0) return 'a valid value';
  if (all.length === 1) return all[0];
  if (all.length === 2 && !all.some((phrase) => phrase.startsWith("'"))) return `${all[0]} or ${all[1]}`;
  return `one of: ${all.join(', ')}`;
}

/** The received value, short: `'hot'`, `3`, `null`, `an array`, `an object with type 'x'`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const tag = (value as { type?: unknown }).type;
    return typeof tag === 'string' ? `an object with type ${quote(tag)}` : 'an object';
  }
  return quote(value);
}
