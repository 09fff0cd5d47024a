/** Starts the real proxy on 127.0.0.1:0 in front of a mock upstream, quietly. */
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';

export async function startProxyFor(
  upstreamUrl: string,
  backend: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<RunningServer> {
  const config = loadConfig({
    backends: { upstream: { url: upstreamUrl, ...backend } },
    routes: [{ model: '*', backend: 'upstream' }],
    ...extra,
    // Started per test in many files: the warm-up is test/e2e/warm-up.test.ts's.
    server: { warmUpMs: 0, ...(extra.server as Record<string, unknown> | undefined) },
  });
  const server = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
  await server.proxy.ready;
  return server;
}

/** Starts the real proxy on 127.0.0.1:0 with the bundled llama.cpp worker on the built-in model, every model routed to it. */
export async function startBuiltinProxy(backend: Record<string, unknown> = {}): Promise<RunningServer> {
  const config = loadConfig({
    backends: { local: { kind: 'llama-cpp', model: 'builtin', ...backend } },
    routes: [{ model: '*', backend: 'local' }],
  });
  const server = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
  await server.proxy.ready;
  return server;
}
