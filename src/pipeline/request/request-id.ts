import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const safeId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when it is safe to echo and log, else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && safeId.test(given) ? given : `req_${randomUUID().replace(/-/g, '')}`;
}
