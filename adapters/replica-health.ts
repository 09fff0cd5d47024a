/**
 * Active health of a replica pool (`health:` on a backend with `urls`): every
 * `intervalMs`, a GET of `path` on each replica; `failures` failed probes in a
 * row (no 2xx within `timeoutMs`) mark it down, and the next probe that
 * succeeds puts it back in service (ending a passive ejection too). llama.cpp's
 * server and vLLM answer `GET /health` with 200 once their model is loaded
 * (llama-server: 503 while it loads).
 */
import { Agent } from './transport/undici-agent.js';
import { UpstreamExchange } from './transport/upstream-exchange.js';
import type { Replica, ReplicaPool } from './replica-pool.js';

export interface HealthSettings {
  /** Resolved against each replica's URL: `/health` is at the server's root, `models` under the URL's path (e.g. /v1/models). */
  path: string;
  intervalMs: number;
  timeoutMs: number;
  /** Failed probes in a row that mark a replica down. */
  failures: number;
}

export const HEALTH_DEFAULTS: Omit<HealthSettings, 'path'> = { intervalMs: 5_000, timeoutMs: 2_000, failures: 2 };

/** The URL a probe of `replica` GETs. @example probeUrl('http://gpu-1:8000/v1', '/health') // 'http://gpu-1:8000/health' */
export function probeUrl(base: string, path: string): string {
  return new URL(path, `${base.replace(/\/+$/, '')}/`).href;
}

export interface HealthProber {
  /** Probes every replica once now (the first round), then every `intervalMs`. */
  start(): void;
  /** One round of probes, resolved when each has an outcome (tests). */
  probeAll(): Promise<void>;
  close(): Promise<void>;
}

export function createHealthProber(pool: ReplicaPool, settings: HealthSettings, headers: Record<string, string> = {}): HealthProber {
  const agent = new Agent({
    connect: { timeout: settings.timeoutMs },
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
  });
  const failedInARow = new Map<Replica, number>();
  const running = new Set<Replica>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  async function probe(replica: Replica): Promise<void> {
    if (running.has(replica) || closed) return; // a slow probe is not stacked on
    running.add(replica);
    let ok: boolean;
    try {
      const target = new URL(probeUrl(replica.base, settings.path));
      const exchange = new UpstreamExchange(AbortSignal.timeout(settings.timeoutMs));
      agent.dispatch({ origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', headers }, exchange);
      const { status } = await exchange.head;
      await exchange.text(); // read to its end, so the connection is kept for the next probe
      ok = status >= 200 && status < 300;
    } catch {
      ok = false;
    } finally {
      running.delete(replica);
    }
    if (closed) return;
    if (ok) {
      failedInARow.set(replica, 0);
      pool.probeSucceeded(replica);
    } else {
      const count = (failedInARow.get(replica) ?? 0) + 1;
      failedInARow.set(replica, count);
      if (count >= settings.failures) pool.probeFailed(replica);
    }
  }

  const probeAll = () => Promise.all(pool.replicas.map(probe)).then(() => undefined);

  return {
    start() {
      if (timer || closed) return;
      void probeAll();
      timer = setInterval(() => void probeAll(), settings.intervalMs);
      timer.unref();
    },
    probeAll,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await agent.destroy();
    },
  };
}
