/**
 * How many JSON values (objects, arrays and what they hold) a parsed body
 * has, counted no further than `bound` (past it, `bound + 1`): a caller asking
 * whether a body is small pays for at most `bound` steps, however large the body.
 */
export function countValuesUpTo(value: unknown, bound: number): number {
  let count = 1;
  const stack: unknown[] = [value];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      // An array's length is known at once: one past the bound is never walked.
      count += next.length;
      if (count > bound) return bound + 1;
      for (const item of next) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    for (const key in next) {
      if (++count > bound) return bound + 1;
      const item = (next as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
  return count;
}
