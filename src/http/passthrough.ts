/**
 * The pass-through: other `/v1/*` paths relay untouched (http-proxy-middleware)
 * to the configured backend. Loaded only when one is configured.
 */
import type { RequestHandler } from 'express';
import { Agent as HttpAgent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware';
import type { ProxyConfig, RemoteBackendSettings } from '../runtime/configuration.js';
import { passthroughUnreachable } from '../errors/catalogue.js';
import type { ProxyError } from '../errors/proxy-error.js';
import { checkApiKey } from '../pipeline/request/check-api-key.js';
import { sendError } from '../pipeline/answer/send-json.js';
import { findKind } from '../../adapters/registry.js';

/** The relay for the pass-through backend; the caller's key is checked first. */
export function passthrough(config: ProxyConfig & { passthrough: string }): RequestHandler {
  const backend = config.backends[config.passthrough] as RemoteBackendSettings;
  const keys = config.server.apiKeys;
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
      proxyReq: (proxyReq, req) => {
        // The caller's key is the proxy's own: it never travels upstream (the backend's, set above, does).
        if (!sets('authorization') && keys.length > 0) proxyReq.removeHeader('authorization');
        if (!sets('x-api-key')) proxyReq.removeHeader('x-api-key');
        // A host app's body parser may have consumed the body already: write it back.
        restoreBody(proxyReq, req);
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
    } catch (error) {
      sendError(res, undefined, error as ProxyError);
      return;
    }
    void relay(req, res, next);
  };
}

/**
 * A body a host parser consumed goes upstream again: as it was read when the
 * parser kept it as text or bytes (`express.text()`, `express.raw()`), else
 * re-serialised by http-proxy-middleware (which would JSON-encode a string twice).
 */
function restoreBody(proxyReq: ClientRequest, req: IncomingMessage & { body?: unknown }): void {
  const { body } = req;
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    fixRequestBody(proxyReq, req);
    return;
  }
  if (!req.readableEnded && !req.readableDidRead) return; // unread: it streams through as usual
  proxyReq.setHeader('content-length', Buffer.byteLength(body));
  proxyReq.write(body);
}
