/**
 * The nesting of a request body, bounded before anything walks it
 * (`limits.jsonDepth`): the proxy's schema, grammar and report builders, and
 * structuredClone, recurse, and a body thousands of levels deep would overflow
 * their stacks. Walked with a stack of its own, so this check cannot.
 */
import { limitExceeded } from '../../errors/catalogue.js';

/** Throws a 400 naming the top-level field where the body first nests deeper than `maxDepth`. */
export function checkJsonDepth(body: unknown, maxDepth: number): void {
  if (typeof body !== 'object' || body === null) return;
  // Two parallel stacks, no object per container: a body of a million small arrays is walked in milliseconds.
  const values: object[] = [body];
  const depths: number[] = [1];
  for (let value = values.pop(); value !== undefined; value = values.pop()) {
    const depth = depths.pop()! + 1;
    if (Array.isArray(value)) {
      // By index: for-in over an array makes a string of every index.
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (typeof child !== 'object' || child === null) continue;
        if (depth > maxDepth) throw tooDeep(body, maxDepth);
        values.push(child);
        depths.push(depth);
      }
      continue;
    }
    // for-in: a parsed body has no inherited keys, and no array of entries is built per object.
    for (const key in value) {
      const child: unknown = (value as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth > maxDepth) throw tooDeep(body, maxDepth);
      values.push(child);
      depths.push(depth);
    }
  }
}

interface Frame {
  value: object;
  /** Its key in its parent: an array's index is a number. */
  key: string | number;
  parent?: Frame;
}

/** The error, with the path to the first place deeper than `maxDepth`, found again with each container's path kept. */
function tooDeep(body: object, maxDepth: number) {
  const stack: { frame: Frame; depth: number }[] = [{ frame: { value: body, key: '' }, depth: 1 }];
  let deepest: Frame | undefined;
  for (let at = stack.pop(); at && !deepest; at = stack.pop()) {
    for (const [key, child] of Object.entries(at.frame.value)) {
      if (typeof child !== 'object' || child === null) continue;
      const frame: Frame = { value: child as object, key: Array.isArray(at.frame.value) ? Number(key) : key, parent: at.frame };
      if (at.depth + 1 > maxDepth) {
        deepest = frame;
        break;
      }
      stack.push({ frame, depth: at.depth + 1 });
    }
  }
  const keys: (string | number)[] = [];
  for (let at: Frame | undefined = deepest; at?.parent; at = at.parent) keys.unshift(at.key);
  const path = keys
    .slice(0, 6)
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`))
    .join('');
  return limitExceeded(
    keys[0] === undefined ? null : String(keys[0]),
    `The request body nests deeper than ${maxDepth} levels (at ${path}${keys.length > 6 ? '...' : ''})`,
    'limits.jsonDepth',
  );
}
