/**
 * Before the proxy says it is ready: synthetic requests through the same code
 * real ones take (the HTTP server, reading, validating, planning, the wire body,
 * undici, the upstream reader, the caller's serializer, the log line), in every
 * dialect, JSON and streamed, to a backend of each remote kind configured. A
 * process's first requests otherwise run in V8's interpreter and compile its
 * lazy parts (undici's HTTP parser among them) while its first clients wait:
 * on a cold start of 500 streams at once that was hundreds of milliseconds of
 * time to first token (docs/performance.md, "Cold start").
 *
 * The requests go to a loopback server of canned answers (canned-upstream.ts),
 * never to a real backend, through a runtime of their own: the proxy's metrics,
 * logs, response store and traces see none of them. Backends run in the proxy
 * (the bundled worker) are left out: a synthetic generation would cost real
 * compute, and the worker's own path is not the proxy's code.
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { findKind } from '../../adapters/registry.js';
import type { BackendCommon, ProxyConfig } from '../config/settings.js';
import { DIALECTS } from '../dialects/registry.js';
import { createLogger } from '../logging/logger.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { handleRequest } from '../pipeline/handle-request.js';
import { startCannedUpstream, type CannedUpstream } from './canned-upstream.js';
import { closeServer, listenOnLoopback } from './loopback-server.js';
import { createRuntime } from './create-runtime.js';

export interface WarmUpOutcome {
  /** Requests sent. */
  requests: number;
  /** Of those, answered with another status than 200, by dialect path and status (a refusal warms its path too). */
  refused: Record<string, number>;
  ms: number;
  /** What stopped it, if anything did: a failed warm-up leaves the proxy as it would be without one. */
  failure?: string;
}

/** How long past its budget a round may run before its requests are cut. */
const HANG_MS = 5_000;

/** Rounds of every request, until `budgetMs` has passed or `signal` aborts; nothing when no backend is remote. Never throws. */
export async function warmUp(config: ProxyConfig, budgetMs: number, signal?: AbortSignal): Promise<WarmUpOutcome> {
  const started = performance.now();
  const remote = Object.entries(config.backends).filter(([, settings]) => findKind(settings.kind)?.warmUp);
  if (budgetMs <= 0 || remote.length === 0) return { requests: 0, refused: {}, ms: 0 };
  const outcome: WarmUpOutcome = { requests: 0, refused: {}, ms: 0 };
  const open: { close(): Promise<void> }[] = [];
  try {
    const upstream = await startCannedUpstream();
    open.push(upstream);
    const runtime = await createRuntime(warmUpConfig(config, remote, upstream), {
      // The same log format and level as the proxy's, written nowhere.
      logger: createLogger({ level: config.server.logLevel, stream: new Writable({ write: (_chunk, _encoding, done) => done() }) }),
      metrics: new ProxyMetrics({ defaultMetrics: false }),
    });
    open.unshift(runtime);
    const byPath = new Map(DIALECTS.map((dialect) => [dialect.path, dialect]));
    const front = createServer((req, res) => {
      const url = req.url ?? '';
      const dialect = byPath.get(url) ?? DIALECTS.map(({ route }) => route?.match(url)).find(Boolean)?.dialect;
      if (dialect) void handleRequest(runtime, dialect, req, res);
      else res.writeHead(404).end();
    });
    const port = await listenOnLoopback(front);
    open.unshift({ close: () => closeServer(front) });
    const agent = new Agent({ keepAlive: true });
    // A round that hangs (a bug somewhere on the path) must not hold the proxy unready: its requests are cut.
    const cut = setTimeout(() => agent.destroy(), budgetMs + HANG_MS);
    open.unshift({
      close: async () => {
        clearTimeout(cut);
        agent.destroy();
      },
    });
    const round = remote.flatMap(([name]) =>
      DIALECTS.flatMap((dialect) =>
        [false, true].map((stream) => ({
          path: dialect.route?.urlFor(warmModel(name), stream) ?? dialect.path,
          body: JSON.stringify(dialect.typicalRequest(warmModel(name), stream)),
        })),
      ),
    );
    // At least one round, however long the set-up took (a loaded machine): the first round is the one that warms.
    while (!signal?.aborted && (outcome.requests === 0 || performance.now() - started < budgetMs)) {
      const statuses = await Promise.all(round.map(({ path, body }) => post(agent, port, path, body)));
      statuses.forEach((status, i) => {
        const key = `${round[i].path} ${status}`;
        if (status !== 200) outcome.refused[key] = (outcome.refused[key] ?? 0) + 1;
      });
      outcome.requests += round.length;
    }
  } catch (error) {
    outcome.failure = String(error);
  } finally {
    for (const part of open) await part.close().catch(() => undefined);
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

/** The proxy's config with each remote backend pointed at the canned upstream, one route to each, and nothing kept or traced. */
function warmUpConfig(config: ProxyConfig, remote: [string, BackendCommon][], upstream: CannedUpstream): ProxyConfig {
  const backends = Object.fromEntries(
    remote.map(([name, settings]) => [name, findKind(settings.kind)!.warmUp!.pointedAt(settings, upstream.urlFor(settings.kind))]),
  );
  const { passthrough: _passthrough, ...rest } = config;
  return {
    ...rest,
    server: { ...config.server, apiKeys: [] },
    responses: {},
    backends,
    routes: remote.map(([name]) => ({ model: warmModel(name), backend: name })),
    telemetry: { enabled: false },
  };
}

const warmModel = (backend: string) => `warm-up-${backend}`;

/** POSTs `body` and reads the answer to its end; resolves with its status (0 when the exchange failed). */
function post(agent: Agent, port: number, path: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
