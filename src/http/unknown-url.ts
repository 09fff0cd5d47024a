/**
 * The standalone server's last handler: a 404 that, for a known path under a wrong prefix (a base URL
 * that already ended in /v1 gets /v1 again: `/v1/v1/messages`; one without it: `/chat/completions`),
 * names the URL meant. Every 404 is logged with its path, at most a few a second (a scan must not
 * flood the log): a misconfigured client leaves a trace.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DIALECTS } from '../dialects/registry.js';
import { unknownUrl } from '../errors/catalogue.js';
import type { Logger } from '../logging/logger.js';
import { sendError } from '../pipeline/answer/send-json.js';
import { routedDialectOf } from './routed-dialects.js';

/** The paths the proxy answers, longest first (so `/v1/messages/count_tokens` wins over `/v1/messages`). */
const KNOWN_PATHS = [
  ...DIALECTS.flatMap(({ path, countTokensPath }) => [path, ...(countTokensPath ? [countTokensPath] : [])]),
  '/v1/models',
].sort((a, b) => b.length - a.length);

/** Log lines per window; the 404s past them are counted in the next line. */
const LINES_PER_WINDOW = 10;
const WINDOW_MS = 10_000;

/** The known path a caller most likely meant, when its path is one under a wrong prefix or without its /v1. */
export function meantPath(path: string): string | undefined {
  const trimmed = path.replace(/\/+$/, '');
  return KNOWN_PATHS.find((known) => trimmed !== known && (trimmed.endsWith(known) || known.endsWith(trimmed.replace(/^\/+/, '/'))));
}

export function unknownUrlHandler(logger: () => Logger | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  let windowStart = 0;
  let lines = 0;
  let unlogged = 0;
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    const meant = path.length > 1 ? meantPath(path) : undefined;
    const now = Date.now();
    if (now - windowStart >= WINDOW_MS) {
      windowStart = now;
      lines = 0;
    }
    if (lines < LINES_PER_WINDOW) {
      lines += 1;
      logger()?.info('unknown url', { method: req.method, path, ...(meant ? { meant } : {}), ...(unlogged ? { unlogged } : {}) });
      unlogged = 0;
    } else unlogged += 1;
    // Under a routed dialect's prefix (Gemini's /v1beta/models/), its callers read its error shape.
    sendError(res, routedDialectOf(req), unknownUrl(req.method ?? 'GET', path, meant));
  };
}
