/**
 * The load generator of the `--workers` comparison (bench/workers.ts) and of
 * the paired loads (bench/paired.ts), in a process of its own: `concurrency`
 * keep-alive connections, each sending its next request as soon as the one
 * before has been read whole, for `seconds`.
 * Replies over IPC with the requests served per second and its own CPU use,
 * which counts: on a 2-core machine it shares the cores with the proxy's
 * processes and the upstream.
 */
import { Pool } from 'undici';

export interface ClientSettings {
  port: number;
  path: string;
  body: string;
  concurrency: number;
  seconds: number;
  /** Sent besides content-type. */
  headers?: Record<string, string>;
}

export interface ClientResult {
  /** Requests answered 200 and read whole. */
  requests: number;
  requestsPerSecond: number;
  errors: number;
  /** CPU this process used over the run, in percent of one core. */
  cpuPercent: number;
}

const settings = JSON.parse(process.argv[2]) as ClientSettings;
const pool = new Pool(`http://127.0.0.1:${settings.port}`, { connections: settings.concurrency, pipelining: 1 });
const cpuBefore = process.cpuUsage();
const started = performance.now();
const deadline = started + settings.seconds * 1000;
let done = 0;
let errors = 0;
await Promise.all(
  Array.from({ length: settings.concurrency }, async () => {
    while (performance.now() < deadline) {
      try {
        const response = await pool.request({
          method: 'POST',
          path: settings.path,
          body: settings.body,
          headers: { 'content-type': 'application/json', ...settings.headers },
        });
        await response.body.text();
        if (response.statusCode === 200) done += 1;
        else errors += 1;
      } catch {
        errors += 1;
      }
    }
  }),
);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await pool.close();
const result: ClientResult = {
  requests: done,
  requestsPerSecond: done / (elapsedMs / 1000),
  errors,
  cpuPercent: ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100,
};
process.send?.(result, () => process.exit(0));
