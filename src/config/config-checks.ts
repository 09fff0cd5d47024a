/** The small checks every part of the configuration uses; each failure names the key. */
import { closestName } from './closest-name.js';

export class ConfigError extends Error {
  constructor(key: string, message: string) {
    super(`config: ${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** While a whole file is checked (`reportingEveryUnknownKey`), the unknown keys met so far; otherwise the first one throws. */
let unknownKeys: string[] | undefined;

/**
 * Runs a config's check so that every unknown key is reported at once, each with the allowed key it was
 * most likely meant to be: one start that lists them all, rather than one per run. Unknown keys come
 * before any other failure, which they often cause (`route:` for `routes:` leaves `routes` missing).
 */
export function reportingEveryUnknownKey<T>(check: () => T): T {
  const outer = unknownKeys;
  const found: string[] = [];
  unknownKeys = found;
  try {
    const checked = check();
    if (found.length > 0) throw unknownKeysError(found);
    return checked;
  } catch (error) {
    throw found.length > 0 ? unknownKeysError(found) : error;
  } finally {
    unknownKeys = outer;
  }
}

function unknownKeysError(found: readonly string[]): ConfigError {
  return found.length === 1
    ? new ConfigError(found[0].slice(0, found[0].indexOf(': ')), found[0].slice(found[0].indexOf(': ') + 2))
    : new ConfigError(`${found.length} unknown keys`, found.join('; '));
}

export function objectAt(value: unknown, key: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(key, 'must be a mapping');
  return value as Record<string, unknown>;
}

export function allowKeys(object: Record<string, unknown>, key: string, allowed: readonly string[]): void {
  for (const name of Object.keys(object)) {
    if (allowed.includes(name)) continue;
    const path = key === '(root)' ? name : `${key}.${name}`;
    const near = closestName(name, allowed);
    const message = `unknown key (${near ? `did you mean ${near}? ` : ''}allowed: ${allowed.join(', ')})`;
    if (!unknownKeys) throw new ConfigError(path, message);
    unknownKeys.push(`${path}: ${message}`);
  }
}

export function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ConfigError(key, 'must be a string');
  return value;
}

export function optionalBoolean(value: unknown, key: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ConfigError(key, 'must be true or false');
  return value;
}

export function optionalInteger(value: unknown, key: string, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(key, `must be an integer${min > -Infinity ? ` >= ${min}` : ''}${max < Infinity ? ` and <= ${max}` : ''}`);
  }
  return number;
}

/** Checks an integer setting and stores it as a number (`${ENV}` substitution yields strings). */
export function integerField(object: Record<string, unknown>, name: string, key: string, min?: number, max?: number): void {
  const value = optionalInteger(object[name], `${key}.${name}`, min, max);
  if (value !== undefined) object[name] = value;
}

export function stringList(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new ConfigError(key, 'must be a list of strings');
  return value as string[];
}
