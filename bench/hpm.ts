/**
 * Bench target, what users run today: Express + http-proxy-middleware relaying
 * each request to the same path on the upstream, translating nothing. In its
 * own process, which never loads dialect-proxy's code, so its memory is its
 * own. Prints its port on stdout.
 *
 * `hpm.js <upstreamPort>`
 */
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';

const origin = `http://127.0.0.1:${process.argv[2]}`;
const app = express();
// Keep-alive upstream connections, as dialect-proxy has: a fair peer.
// Mounted at the root, it relays the path as it came (/v1/chat/completions), so its target is the bare origin.
app.use(createProxyMiddleware({ target: origin, changeOrigin: true, agent: new Agent({ keepAlive: true }) }));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
console.log(String((server.address() as AddressInfo).port));
