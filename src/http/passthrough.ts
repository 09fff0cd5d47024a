/**
 * The pass-through: other `/v1/*` paths relay untouched (http-proxy-middleware)
 * to the configured backend. Loaded only when one is configured.
 */
import type { RequestHandler } from 'express';
import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware';
import type { ProxyConfig, RemoteBackendSettings } from '../runtime/configuration.js';
import { passthroughUnreachable, requestTimeout, requestTooLarge } from '../errors/catalogue.js';
import { invalidRequest, type ProxyError } from '../errors/proxy-error.js';
import { checkApiKey } from '../pipeline/request/check-api-key.js';
import { sendError } from '../pipeline/answer/send-json.js';
import { findKind } from '../../adapters/registry.js';

/**
 * The relay for the pass-through backend; the caller's key is checked first, then the path (no dot
 * segments: a backend would resolve them to a path of its own, reached with the backend's key), and the
 * body is held to `server.maxBodyBytes` and `server.requestTimeoutMs` as a translated request's is.
 */
export function passthrough(config: ProxyConfig & { passthrough: string }): RequestHandler {
  const backend = config.backends[config.passthrough] as RemoteBackendSettings;
  const keys = config.server.apiKeys;
  const { maxBodyBytes, requestTimeoutMs } = config.server;
  // A pool of replicas (`urls`) takes the relayed paths in turn.
  const targets = backend.urls ?? [backend.url as string];
  let turn = 0;
  // The backend's own key: as a Bearer token, or in the headers its kind takes it in (Anthropic's x-api-key).
  const relayed = findKind(backend.kind)?.relayHeaders?.(backend) ?? {
    ...backend.headers,
    ...(backend.apiKey ? { authorization: `Bearer ${backend.apiKey}` } : {}),
  };
  const sets = (name: string) => Object.keys(relayed).some((key) => key.toLowerCase() === name);
  const relay = createProxyMiddleware({
    target: targets[0],
    ...(targets.length > 1 ? { router: () => targets[turn++ % targets.length] } : {}),
    changeOrigin: true,
    agent: targets[0].startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    headers: relayed,
    on: {
      proxyReq: (proxyReq, req, res) => {
        // The caller's key is the proxy's own: it never travels upstream (the backend's, set above, does).
        if (!sets('authorization') && keys.length > 0) proxyReq.removeHeader('authorization');
        if (!sets('x-api-key')) proxyReq.removeHeader('x-api-key');
        // A host app's body parser may have consumed the body already: write it back.
        if (!restoreBody(proxyReq, req)) boundBody(req, proxyReq, res as ServerResponse, { maxBodyBytes, requestTimeoutMs });
      },
      error: (_error, _req, res) => {
        if ('writeHead' in res && !res.headersSent) {
          sendError(res as ServerResponse, undefined, passthroughUnreachable());
        }
      },
    },
  });
  return (req, res, next) => {
    try {
      checkApiKey(req, keys);
      if (hasDotSegment(req.originalUrl ?? req.url)) {
        throw invalidRequest(
          null,
          'The path has a dot segment (. or .., plain or percent-encoded); the pass-through relays only plain paths.',
        );
      }
      if (Number(req.headers['content-length']) > maxBodyBytes) throw requestTooLarge(maxBodyBytes);
    } catch (error) {
      sendError(res, undefined, error as ProxyError);
      return;
    }
    void relay(req, res, next);
  };
}

/** Whether a path has a `.` or `..` segment, once percent-decoding (even of `%25`) and backslashes are undone as a server might. */
function hasDotSegment(url: string): boolean {
  let path = url.split('?', 1)[0];
  for (let i = 0; i < 3 && /%25/i.test(path); i++) path = path.replace(/%25/gi, '%');
  return path
    .replace(/%2e/gi, '.')
    .split(/\/|\\|%2f|%5c/i)
    .some((segment) => segment === '.' || segment === '..');
}

/**
 * A streamed body past `maxBodyBytes`, or still arriving after `requestTimeoutMs`: the caller gets a 413 or
 * a 408 and the relay is cut (the rest of the body is left unread, so the connection closes).
 */
function boundBody(
  req: IncomingMessage,
  proxyReq: ClientRequest,
  res: ServerResponse,
  { maxBodyBytes, requestTimeoutMs }: { maxBodyBytes: number; requestTimeoutMs: number },
): void {
  if (req.complete) return;
  let size = 0;
  const cut = (error: ProxyError) => {
    stop();
    if (!res.headersSent) {
      res.setHeader('connection', 'close');
      sendError(res, undefined, error);
    }
    proxyReq.destroy();
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBodyBytes) cut(requestTooLarge(maxBodyBytes));
  };
  const timer = setTimeout(() => cut(requestTimeout(requestTimeoutMs)), requestTimeoutMs);
  const stop = () => {
    clearTimeout(timer);
    req.off('data', onData).off('end', stop).off('close', stop);
  };
  req.on('data', onData).once('end', stop).once('close', stop);
}

/**
 * A body a host parser consumed goes upstream again (true; false for one that streams through): as it was read when the
 * parser kept it as text or bytes (`express.text()`, `express.raw()`), else
 * re-serialised by http-proxy-middleware (which would JSON-encode a string twice).
 */
function restoreBody(proxyReq: ClientRequest, req: IncomingMessage & { body?: unknown }): boolean {
  const { body } = req;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    fixRequestBody(proxyReq, req);
    return req.readableEnded || req.readableDidRead;
  }
  if (!req.readableEnded && !req.readableDidRead) return false; // unread: it streams through as usual
  proxyReq.setHeader('content-length', Buffer.byteLength(body));
  proxyReq.write(body);
  return true;
}
