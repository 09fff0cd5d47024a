/**
 * Bench proxies, in one process: the floor (Express + http-proxy-middleware,
 * relaying bytes without translating) and dialect-proxy, both in front of the
 * bench upstream. Prints `floorPort proxyPort` on stdout.
 */
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/configuration.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';

const upstream = `http://127.0.0.1:${process.argv[2]}/v1`;
const floor = express();
// Keep-alive upstream connections, as dialect-proxy has: the floor is a fair one.
floor.use(createProxyMiddleware({ target: upstream, changeOrigin: true, agent: new Agent({ keepAlive: true }) }));
const floorServer = floor.listen(0, '127.0.0.1');
await new Promise((resolve) => floorServer.once('listening', resolve));

const config = loadConfig({
  server: { logLevel: 'error' },
  backends: { bench: { kind: 'openai', url: upstream, speaks: ['chat'] } },
  routes: [{ model: '*', backend: 'bench' }],
});
const proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ level: 'error', json: true }) });
await proxy.proxy.ready;
console.log(`${(floorServer.address() as AddressInfo).port} ${new URL(proxy.url).port}`);
