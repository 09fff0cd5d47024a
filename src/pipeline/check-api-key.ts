import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { incorrectApiKey, missingApiKey } from '../errors/catalogue.js';

/** When inbound keys are configured, the caller must send one as a Bearer token (or `x-api-key`). */
export function checkApiKey(req: IncomingMessage, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const header = req.headers.authorization;
  const given = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : req.headers['x-api-key'];
  if (typeof given === 'string' && keys.some((key) => sameSecret(key, given))) return;
  throw given ? incorrectApiKey() : missingApiKey();
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
