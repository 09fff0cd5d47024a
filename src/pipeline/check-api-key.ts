import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ProxyError } from '../errors/proxy-error.js';

/** When inbound keys are configured, the caller must send one as a Bearer token (or `x-api-key`). */
export function checkApiKey(req: IncomingMessage, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const header = req.headers.authorization;
  const given = typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : req.headers['x-api-key'];
  if (typeof given === 'string' && keys.some((key) => sameSecret(key, given))) return;
  throw new ProxyError({
    status: 401,
    type: 'authentication_error',
    code: 'invalid_api_key',
    message: given ? 'Incorrect API key provided.' : 'Missing API key: send it as "Authorization: Bearer <key>".',
  });
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
