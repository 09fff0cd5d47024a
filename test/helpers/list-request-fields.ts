import { join } from 'node:path';
import type { DocumentName } from '../../src/validation/load-openapi-document.js';
import { defaultOpenapiDir, loadOpenapiDocument, OPENAPI_DOCUMENTS } from '../../src/validation/load-openapi-document.js';

const cache = new Map<string, readonly string[]>();

type Node = Record<string, unknown>;

function child(node: unknown, key: string): unknown {
  return node && typeof node === 'object' ? (node as Node)[key] : undefined;
}

/** Follows a local `#/a/b` $ref. */
function deref(document: Node, node: unknown): unknown {
  const ref = child(node, '$ref');
  if (typeof ref !== 'string') return node;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => child(at, key), document);
}

/**
 * The top-level property names (wire names) of our own request schema for an
 * endpoint, in document order. Read once per directory and cached.
 *
 * @example listRequestFields('text') // ['model', 'user', 'prompt_cache_key', ...]
 */
export function listRequestFields(endpoint: DocumentName, options: { openapiDir?: string } = {}): string[] {
  const dir = options.openapiDir ?? defaultOpenapiDir();
  const key = join(dir, OPENAPI_DOCUMENTS[endpoint].file);
  let fields = cache.get(key);
  if (!fields) {
    const document = loadOpenapiDocument(endpoint, dir);
    const { path, operationId } = OPENAPI_DOCUMENTS[endpoint];
    const operation = child(child(child(document, 'paths'), path), 'post');
    if (child(operation, 'operationId') !== operationId) throw new Error(`${key}: no POST ${path} with operationId ${operationId}`);
    const media = child(child(child(operation, 'requestBody'), 'content'), 'application/json');
    const schema = deref(document, child(media, 'schema'));
    const properties = child(schema, 'properties');
    if (!properties || typeof properties !== 'object') throw new Error(`${key}: the request schema has no properties`);
    fields = Object.freeze(Object.keys(properties));
    cache.set(key, fields);
  }
  return [...fields];
}
