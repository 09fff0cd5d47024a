import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { incorrectApiKey, missingApiKey } from '../../errors/catalogue.js';
import type { ApiKeySources } from '../../dialects/dialect.js';

/**
 * When inbound keys are configured, the caller must send one as a Bearer token (or `x-api-key`, or where its
 * dialect takes one: Gemini's `x-goog-api-key` or `?key=`).
 * Returns the caller's owner id: what the state it makes (stored responses, background runs) belongs to.
 * It is a digest of the key, never the key, so a store may keep it; without keys every caller is the one owner ''.
 */
export function checkApiKey(req: IncomingMessage, keys: readonly string[], from?: ApiKeySources): string {
  if (keys.length === 0) return '';
  const given = givenKey(req, from);
  if (given !== undefined && keys.some((key) => sameSecret(key, given))) return ownerOf(given);
  throw given ? incorrectApiKey() : missingApiKey();
}

/** Whether the request carries one of `keys` (none configured: false), without building an error. */
export function carriesApiKey(req: IncomingMessage, keys: readonly string[], from?: ApiKeySources): boolean {
  const given = keys.length > 0 ? givenKey(req, from) : undefined;
  return given !== undefined && keys.some((key) => sameSecret(key, given));
}

function givenKey(req: IncomingMessage, from?: ApiKeySources): string | undefined {
  const header = req.headers.authorization;
  const given =
    typeof header === 'string' && /^Bearer\s+/i.test(header) ? header.replace(/^Bearer\s+/i, '').trim() : req.headers['x-api-key'];
  if (typeof given === 'string') return given;
  const own = from?.header === undefined ? undefined : req.headers[from.header];
  if (typeof own === 'string') return own;
  return from?.query === undefined ? undefined : queryValue(req.url ?? '', from.query);
}

/** One query parameter of a URL; the URL itself is never logged with its query (the key may be in it). */
function queryValue(url: string, name: string): string | undefined {
  const query = url.indexOf('?');
  return query < 0 ? undefined : (new URLSearchParams(url.slice(query + 1)).get(name) ?? undefined);
}

/** The owner id of an API key (a SHA-256 prefix: unguessable, and the same on every replica). */
export function ownerOf(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 22);
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
