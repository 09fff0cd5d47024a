/**
 * Bench child: dialect-proxy on the bundled worker, in its own process so the
 * bench's HTTP client does not share its event loop. Prints its port.
 */
import { loadConfig } from '../src/runtime/configuration.js';
import { createLogger } from '../src/logging/logger.js';
import { startServer } from '../src/http/server.js';

const modelPath = process.argv[2];
// BENCH_STREAM_BATCH_MS compares batch windows; unset, the backend's default.
const batch = process.env.BENCH_STREAM_BATCH_MS ? { streamBatchMs: Number(process.env.BENCH_STREAM_BATCH_MS) } : {};
const config = loadConfig({
  server: { logLevel: 'error' },
  // The same settings as the direct run: 2048-token context per sequence, 4 sequences, 1 thread.
  backends: { local: { kind: 'llama-cpp', model: modelPath, contextSize: 2048, parallel: 4, threads: 1, ...batch } },
  routes: [{ model: '*', backend: 'local' }],
});
const server = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ level: 'error', json: true }) });
await server.proxy.ready;
console.log(new URL(server.url).port);
