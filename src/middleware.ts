/**
 * The drop-in: an Express router that serves the translated endpoints and
 * leaves every other route of the host app alone.
 */
import express, { type Router } from 'express';
import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware';
import { loadConfig, type ProxyConfig, type RemoteBackendSettings } from './configuration.js';
import type { Dialect } from './dialects/dialect.js';
import { DIALECTS } from './dialects/registry.js';
import { backendUnavailable, methodNotAllowed, passthroughUnreachable, unknownUrl } from './errors/catalogue.js';
import type { ProxyError } from './errors/proxy-error.js';
import { checkApiKey } from './pipeline/check-api-key.js';
import { handleRequest, sendError, sendJson } from './pipeline/handle-request.js';
import { createRuntime, type RuntimeOptions } from './create-runtime.js';
import type { ProxyRuntime } from './pipeline/runtime.js';

export interface DialectProxy extends Router {
  /** Resolves once backends and validators are ready (models loaded). */
  ready: Promise<void>;
  /** Stops workers and closes upstream connections. */
  close(): Promise<void>;
}

/**
 * Creates the proxy as an Express router.
 * @example
 * const app = express();
 * app.use(createDialectProxy(loadConfig('config/default.yaml')));
 * app.listen(8080);
 */
export function createDialectProxy(config: ProxyConfig | string | Record<string, unknown>, options: RuntimeOptions = {}): DialectProxy {
  const checked = typeof config === 'string' || !Object.isFrozen(config) ? loadConfig(config as string | Record<string, unknown>) : (config as ProxyConfig);
  const starting = createRuntime(checked, options);
  let runtime: ProxyRuntime | undefined;
  let failure: Error | undefined;
  const ready = starting.then(
    (built) => { runtime = built; },
    (error: unknown) => {
      failure = error instanceof Error ? error : new Error(String(error));
      throw failure;
    },
  );
  ready.catch(() => undefined); // surfaced by requests and by `ready` itself

  const router = express.Router() as DialectProxy;
  const translated = (dialect: Dialect) => (req: IncomingMessage, res: ServerResponse) => {
    starting.then(
      (built) => handleRequest(built, dialect, req, res),
      (error: unknown) => sendError(res, dialect, backendUnavailable(error)),
    );
  };
  for (const dialect of DIALECTS) router.post(dialect.path, translated(dialect));
  router.all(DIALECTS.map(({ path }) => path), (_req, res) => {
    sendError(res, undefined, methodNotAllowed());
  });
  router.get('/v1/models', (_req, res) => {
    starting.then(
      (built) => sendJson(res, 200, { object: 'list', data: built.routes.listedModels().map(({ id, backend }) => ({ id, object: 'model', created: 0, owned_by: backend })) }),
      (error: unknown) => sendError(res, undefined, backendUnavailable(error)),
    );
  });
  router.get('/healthz', (_req, res) => {
    if (runtime) sendJson(res, 200, { status: 'ok' });
    else if (failure) sendJson(res, 503, { status: 'failed', error: failure.message });
    else sendJson(res, 503, { status: 'starting' });
  });
  router.use('/v1', passthrough(checked));

  router.ready = ready;
  router.close = async () => {
    await (await starting.catch(() => undefined))?.close();
  };
  return router;
}

/**
 * Other `/v1/*` paths relay untouched to the configured pass-through backend.
 * Without one they fall through to the host app (the standalone server ends
 * with an OpenAI-shaped 404).
 */
function passthrough(config: ProxyConfig): express.RequestHandler {
  const backend = config.passthrough ? (config.backends[config.passthrough] as RemoteBackendSettings) : undefined;
  if (!backend) return (_req, _res, next) => next();
  const keys = config.server.apiKeys;
  const relay = createProxyMiddleware({
    target: backend.url,
    changeOrigin: true,
    agent: backend.url.startsWith('https:') ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    headers: { ...backend.headers, ...(backend.apiKey ? { authorization: `Bearer ${backend.apiKey}` } : {}) },
    on: {
      proxyReq: (proxyReq, req) => {
        // The caller's key is the proxy's own: it never travels upstream.
        if (!backend.apiKey && keys.length > 0) proxyReq.removeHeader('authorization');
        proxyReq.removeHeader('x-api-key');
        // A host app's body parser may have consumed the body already: write it back.
        fixRequestBody(proxyReq, req);
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

/** The standalone server's last handler. */
export function notFound(req: express.Request, res: express.Response): void {
  sendError(res, undefined, unknownUrl(req.method, req.path));
}
