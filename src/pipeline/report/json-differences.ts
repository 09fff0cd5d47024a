/** Comparing JSON values, and saying how they differ in a translation report's words. */
import { isRecord } from '../../model/is-record.js';

/** Where two values first differ, and what the second has there: `messages[1] is sent as {...}`. */
export function firstDifference(path: string, before: unknown, after: unknown): string {
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    const at = before.findIndex((item, i) => !sameJson(item, after[i]));
    if (at >= 0) return firstDifference(`${path}[${at}]`, before[at], after[at]);
  }
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((key) => !sameJson(before[key], after[key]));
    if (keys.length === 1 && inBoth(before, after, keys[0])) return firstDifference(`${path}.${keys[0]}`, before[keys[0]], after[keys[0]]);
  }
  return `${path} is sent as ${short(after)}`;
}

const inBoth = (a: Record<string, unknown>, b: Record<string, unknown>, key: string) => key in a && key in b;

/**
 * Equal as JSON: the same keys (an undefined value is no key) and values, whatever
 * the objects' prototypes (the bodies compared may come from different realms).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  return (
    keys.length === Object.keys(right).filter((key) => right[key] !== undefined).length &&
    keys.every((key) => sameJson(left[key], right[key]))
  );
}

/** A value in a reason: JSON, cut short. */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
