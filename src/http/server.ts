/**
 * The standalone server: the middleware's router on its own Express app, with
 * the translated endpoints served before Express sees them (on bare
 * `node:http`, the same handler the router calls): routing through Express
 * costs more CPU per request than parsing and planning one.
 */
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyConfig } from '../runtime/configuration.js';
import { createDialectProxy, type DialectProxy } from './middleware.js';
import type { RuntimeOptions } from '../runtime/create-runtime.js';
import { checkBeforeStart } from './check-before-start.js';
import { listenError } from './listen-error.js';
import { checkOpenRelay } from './open-relay.js';
import { settlesWithin } from '../pipeline/drain-requests.js';
import { carriesApiKey } from '../pipeline/request/check-api-key.js';
import { ConnectionGuard } from './connection-guard.js';
import { routedCall } from './routed-dialects.js';

export interface RunningServer {
  server: Server;
  proxy: DialectProxy;
  /** The bound URL, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Stops at once: open connections are cut, then the backends close. */
  close(): Promise<void>;
  /**
   * Stops gracefully: new connections are refused at once (idle keep-alive ones closed), `/healthz`
   * answers 503 `draining`, requests in flight get `graceMs` to finish (then a 503 or an error frame),
   * then the backends close (the bundled worker stops). Calling it again returns the same shutdown.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
}

export interface ShutdownOptions {
  /** How long requests in flight may take to finish (default `server.shutdownGraceMs`). */
  graceMs?: number;
  /** Told each step, for the log. */
  log?: (message: string) => void;
}

/**
 * Serves the proxy on `host:port` (port 0 picks a free one). Refuses a non-loopback host without
 * `apiKeys` unless `allowUnauthenticated` is set (see `checkOpenRelay`), and a backend whose model file
 * is missing (`checkBeforeStart`); a port it cannot listen on is a ListenError that says what to change.
 * @example const { url, close } = await startServer(loadConfig('config/default.yaml'));
 */
export async function startServer(
  config: ProxyConfig,
  options: RuntimeOptions & { host?: string; port?: number } = {},
): Promise<RunningServer> {
  const host = options.host ?? config.server.host;
  checkOpenRelay(host, config.server);
  checkBeforeStart(config);
  const app = express();
  app.disable('x-powered-by');
  let draining = false;
  // The inspector page at `/` (off with server.inspector: false).
  const proxy = createDialectProxy(config, { inspector: true, warmUp: true, ...options });
  app.use(proxy);
  app.use(proxy.notFound);
  // Bounds on each connection and address (connection-guard.ts); keyed connections are shed last.
  const guard = new ConnectionGuard(config.server);
  const { apiKeys } = config.server;
  // Node checks the header and body deadlines on this interval (30 s by default, longer than a deadline itself).
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (!guard.enter(req, res)) return;
    // A Gemini caller's key may be in x-goog-api-key or ?key= (its dialect's apiKeyFrom).
    if (
      apiKeys.length > 0 &&
      !guard.isAuthenticated(req.socket) &&
      carriesApiKey(req, apiKeys, routedCall(req.url ?? '')?.dialect.apiKeyFrom)
    )
      guard.markAuthenticated(req.socket);
    // While draining, no connection stays open for another request: one that arrives says so in
    // its answer, one already running is closed once it has finished.
    if (draining) res.setHeader('connection', 'close');
    else
      res.once('finish', () => {
        if (draining) setImmediate(() => server.closeIdleConnections());
      });
    if (!proxy.serveTranslated(req, res)) void app(req, res);
  });
  const requestedPort = options.port ?? config.server.port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(requestedPort, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await proxy.close(); // the worker started with the proxy
    throw listenError(error as NodeJS.ErrnoException, host, requestedPort);
  });
  // Node's own limits back the proxy's: the body reader answers a slow body with a 408 in the caller's
  // dialect (server.requestTimeoutMs); Node drops a connection whose headers or body are slower still.
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.server;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = Math.max(requestTimeoutMs + 5_000, headersTimeoutMs);
  server.keepAliveTimeout = keepAliveTimeoutMs;
  guard.attach(server);
  const { port } = server.address() as AddressInfo;
  let stopping: Promise<void> | undefined;
  return {
    server,
    proxy,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await proxy.close();
    },
    shutdown({ graceMs = config.server.shutdownGraceMs, log = () => undefined } = {}) {
      stopping ??= (async () => {
        const deadline = Date.now() + graceMs;
        draining = true;
        // Stops listening and closes idle keep-alive connections; resolves once every connection has ended.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        log(`draining: new connections refused, /healthz answers 503; requests in flight have up to ${graceMs} ms`);
        const { ended } = await proxy.drain(graceMs);
        log(
          ended === 0
            ? 'requests in flight finished'
            : `grace over: ended ${ended} request${ended === 1 ? '' : 's'} in flight with 503 shutting_down`,
        );
        // The pass-through's relays are not counted by the drain: their connections are (and the
        // answers just ended get a moment to leave).
        if (!(await settlesWithin(closed, Math.max(100, deadline - Date.now())))) {
          log('closing the connections still open');
          server.closeAllConnections();
          await closed;
        }
        await proxy.close();
        log('backends closed');
      })();
      return stopping;
    },
  };
}
