/**
 * Replaces every local `$ref` with its own copy of the target. openapi-backend
 * would otherwise compile a schema object that occurs twice as an Ajv `$ref`,
 * and Ajv reports errors inside it with the target's schemaPath; with a plain
 * tree every error's schemaPath sits under the union that owns it.
 */

type Json = unknown;

function lookup(root: Json, ref: string): Json {
  let node = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, Json>)[key] : undefined;
    if (node === undefined) throw new Error(`Unresolvable $ref ${ref}`);
  }
  return node;
}

/**
 * A deep copy of `document` without `$ref`s. Recursive schemas are refused (none of ours are).
 *
 * @example inlineRefs({ a: { $ref: '#/b' }, b: { type: 'string' } }) // { a: { type: 'string' }, b: { type: 'string' } }
 */
export function inlineRefs<T>(document: T): T {
  const visit = (node: Json, trail: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((item) => visit(item, trail));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported: ${ref}`);
      if (trail.includes(ref)) throw new Error(`Recursive $ref ${ref} is not supported`);
      return visit(lookup(document, ref), [...trail, ref]);
    }
    const copy: Record<string, Json> = {};
    for (const [key, value] of Object.entries(node)) copy[key] = visit(value, trail);
    return copy;
  };
  return visit(document, []) as T;
}
