/**
 * Bench proxies, in one process: the floor (Express + http-proxy-middleware,
 * relaying bytes without translating) and dialect-proxy, both in front of the
 * bench upstream. Prints `floorPort proxyPort` on stdout.
 *
 * `proxies.js <upstreamPort> floor` starts the floor alone (and never loads
 * dialect-proxy's code, so the process's memory is the floor's own): prints
 * `floorPort`.
 */
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';

const origin = `http://127.0.0.1:${process.argv[2]}`;
const floorOnly = process.argv[3] === 'floor';
const floor = express();
// Keep-alive upstream connections, as dialect-proxy has: the floor is a fair one.
// Mounted at the root, it relays the path as it came (/v1/chat/completions), so its target is the bare origin.
floor.use(createProxyMiddleware({ target: origin, changeOrigin: true, agent: new Agent({ keepAlive: true }) }));
const floorServer = floor.listen(0, '127.0.0.1');
await new Promise((resolve) => floorServer.once('listening', resolve));
const floorPort = (floorServer.address() as AddressInfo).port;

if (floorOnly) {
  console.log(String(floorPort));
} else {
  const [{ loadConfig }, { createLogger }, { startServer }] = await Promise.all([
    import('../src/configuration.js'),
    import('../src/logger.js'),
    import('../src/server.js'),
  ]);
  const config = loadConfig({
    server: { logLevel: 'error' },
    backends: { bench: { kind: 'openai', url: `${origin}/v1`, speaks: ['chat'] } },
    routes: [{ model: '*', backend: 'bench' }],
  });
  const proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ level: 'error', json: true }) });
  await proxy.proxy.ready;
  console.log(`${floorPort} ${new URL(proxy.url).port}`);
}
