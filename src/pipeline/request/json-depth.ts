/**
 * The nesting of a request body, bounded before anything walks it
 * (`limits.jsonDepth`): the proxy's schema, grammar and report builders, and
 * structuredClone, recurse, and a body thousands of levels deep would overflow
 * their stacks. Walked with a stack of its own, so this check cannot.
 */
import { limitExceeded } from '../../errors/catalogue.js';

interface Frame {
  value: object;
  depth: number;
  key: string;
  parent?: Frame;
}

/** Throws a 400 naming the top-level field where the body first nests deeper than `maxDepth`. */
export function checkJsonDepth(body: unknown, maxDepth: number): void {
  if (typeof body !== 'object' || body === null) return;
  const stack: Frame[] = [{ value: body, depth: 1, key: '' }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const value = frame.value as Record<string, unknown>;
    // for-in: a parsed body has no inherited keys, and no array of entries is built per object.
    for (const key in value) {
      const child = value[key];
      if (typeof child !== 'object' || child === null) continue;
      const next: Frame = { value: child, depth: frame.depth + 1, key, parent: frame };
      if (next.depth > maxDepth) throw tooDeep(next, maxDepth);
      stack.push(next);
    }
  }
}

function tooDeep(frame: Frame, maxDepth: number) {
  const keys: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent) keys.unshift(at.key);
  const path = keys
    .slice(0, 6)
    .map((key, i) => (/^\d+$/.test(key) ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
  return limitExceeded(
    keys[0] ?? null,
    `The request body nests deeper than ${maxDepth} levels (at ${path}${keys.length > 6 ? '...' : ''})`,
    'limits.jsonDepth',
  );
}
