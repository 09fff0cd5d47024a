/**
 * The names backends see for the functions of a `namespace` tool (a group of
 * the caller's own function and custom tools, OpenAI's `NamespaceToolParam`).
 * No backend has namespaces, so each inner tool becomes a plain tool named
 * `<namespace>__<name>`, a name every backend accepts (`^[a-zA-Z0-9_-]{1,64}$`,
 * OpenAI's and Anthropic's rule): other characters become `_`, and a name too
 * long or already taken (by a top-level tool, or another namespace's) is cut
 * and given a hash of the pair. The model's calls of a flattened name are
 * restored to the namespace and name the caller gave; a call that comes back
 * in the next request's input, with its namespace, is flattened again the
 * same way. Pure and deterministic: built from the request's own `tools`, by
 * the parse and again by the serializers (from the tools the Response echoes).
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../../model/is-record.js';

/** A tool as the caller named it. */
export interface CallerToolName {
  name: string;
  namespace?: string;
}

const SEPARATOR = '__';
const MAX_NAME = 64;
/** `_` and 8 hex digits. */
const HASH_CHARS = 9;

const pairKey = (namespace: string, name: string) => `${namespace}\u0000${name}`;

/** `<namespace>__<name>` with every character a backend refuses replaced. */
function plainName(namespace: string, name: string): string {
  return `${namespace}${SEPARATOR}${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** A name cut to fit, with a hash of the pair (and of `attempt`, past a collision) at its end. */
function hashedName(namespace: string, name: string, attempt: number): string {
  const hash = createHash('sha256')
    .update(`${pairKey(namespace, name)}\u0000${attempt}`)
    .digest('hex')
    .slice(0, HASH_CHARS - 1);
  return `${plainName(namespace, name).slice(0, MAX_NAME - HASH_CHARS)}_${hash}`;
}

/** Names already built, by the tools array they were built from (the parse, its rows and the serializers share one). */
const built = new WeakMap<object, ToolNames>();

export class ToolNames {
  /**
   * The names of a request's tools, built once per tools array.
   * @example ToolNames.of(body.tools).restore('crm__find') // {namespace: 'crm', name: 'find'}
   */
  static of(tools: unknown): ToolNames {
    if (!Array.isArray(tools)) return new ToolNames(undefined);
    let names = built.get(tools);
    if (!names) built.set(tools, (names = new ToolNames(tools)));
    return names;
  }

  private readonly flatByPair = new Map<string, string>();
  private readonly pairByFlat = new Map<string, Required<CallerToolName>>();

  /** `tools`: the request's Responses tools as sent (anything not an array: none). */
  private constructor(tools: unknown) {
    if (!Array.isArray(tools)) return;
    const taken = new Set<string>();
    for (const tool of tools) if (isRecord(tool) && tool.type !== 'namespace' && typeof tool.name === 'string') taken.add(tool.name);
    for (const tool of tools) {
      if (!isRecord(tool) || tool.type !== 'namespace' || typeof tool.name !== 'string' || !Array.isArray(tool.tools)) continue;
      for (const inner of tool.tools) {
        if (!isRecord(inner) || typeof inner.name !== 'string') continue;
        const key = pairKey(tool.name, inner.name);
        if (this.flatByPair.has(key)) continue;
        let flat = plainName(tool.name, inner.name);
        for (let attempt = 0; flat.length > MAX_NAME || taken.has(flat); attempt++) flat = hashedName(tool.name, inner.name, attempt);
        taken.add(flat);
        this.flatByPair.set(key, flat);
        this.pairByFlat.set(flat, { namespace: tool.name, name: inner.name });
      }
    }
  }

  /** True when the request declares a namespace tool. */
  get any(): boolean {
    return this.pairByFlat.size > 0;
  }

  /**
   * The backend's name for a namespaced tool. A pair this request does not declare (a call from an
   * earlier turn whose namespace is gone) gets the same name the pair alone would have.
   * @example ToolNames.of([{type: 'namespace', name: 'crm', tools: [{type: 'function', name: 'find'}]}]).flat('crm', 'find') // 'crm__find'
   */
  flat(namespace: string, name: string): string {
    const known = this.flatByPair.get(pairKey(namespace, name));
    if (known !== undefined) return known;
    const plain = plainName(namespace, name);
    return plain.length > MAX_NAME ? hashedName(namespace, name, 0) : plain;
  }

  /**
   * The caller's namespace and name for a name the model called; a name not flattened here is the caller's own.
   * @example names.restore('crm__find') // {namespace: 'crm', name: 'find'}
   */
  restore(flat: string): CallerToolName {
    return this.pairByFlat.get(flat) ?? { name: flat };
  }
}
