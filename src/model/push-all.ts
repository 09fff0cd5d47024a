/**
 * `target.push(...items)` without the spread: a spread passes every item as an argument on the stack,
 * and an array a caller sized (400k blocks) overflows it (`RangeError: Maximum call stack size exceeded`).
 */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}
