/** The standalone server: the same router as the middleware, on its own Express app. */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProxyConfig } from './configuration.js';
import { createDialectProxy, notFound, type DialectProxy } from './middleware.js';
import type { RuntimeOptions } from './create-runtime.js';

export interface RunningServer {
  server: Server;
  proxy: DialectProxy;
  /** The bound URL, e.g. http://127.0.0.1:8080 */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the proxy on `host:port` (port 0 picks a free one).
 * @example const { url, close } = await startServer(loadConfig('config/default.yaml'));
 */
export async function startServer(config: ProxyConfig, options: RuntimeOptions & { host?: string; port?: number } = {}): Promise<RunningServer> {
  const app = express();
  app.disable('x-powered-by');
  const proxy = createDialectProxy(config, options);
  app.use(proxy);
  app.use(notFound);
  const host = options.host ?? config.server.host;
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(options.port ?? config.server.port, host, () => resolve(listening));
    listening.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    server,
    proxy,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await proxy.close();
    },
  };
}
