/**
 * The caller dialect a body's shape shows, when it shows one: `translate` reads it to pick the dialect
 * of a file, and the proxy to tell a caller who sent a body to another dialect's endpoint where it goes.
 * Each dialect says how surely a body is its own (`Dialect.recognize`).
 */
import { isRecord } from '../model/is-record.js';
import type { Dialect } from './dialect.js';
import { DIALECTS } from './registry.js';

/**
 * The dialect surest of the body; the registry's first between equals; undefined when none knows it.
 * @example dialectOfBody({model: 'm', input: 'hi'})?.name // 'openai-responses'
 */
export function dialectOfBody(body: unknown): Dialect | undefined {
  if (!isRecord(body)) return undefined;
  let surest: Dialect | undefined;
  let sureness = 0;
  for (const dialect of DIALECTS) {
    const score = dialect.recognize(body);
    if (score > sureness) [surest, sureness] = [dialect, score];
  }
  return surest;
}
