/**
 * `dialect-proxy --workers N`: N processes serving one port (node:cluster; the
 * primary accepts the connections and hands them to the workers in turn).
 *
 * - The primary serves nothing itself: it forks the workers, replaces one that
 *   dies, and on SIGTERM/SIGINT tells each to shut down gracefully (each drains
 *   its own requests within `server.shutdownGraceMs`), then exits once they have.
 * - `GET /metrics`, whichever worker it reaches, answers for all of them: the
 *   worker asks the primary, which gathers every worker's registry and sums them
 *   (prom-client's AggregatorRegistry).
 * - A kind that runs its model in the proxy may load it once, in an engine the
 *   primary owns, which every worker uses: its `sharedEngine` (BackendKind). A
 *   `llama-cpp` backend does (adapters/llama-cpp/shared-host.ts); with
 *   `perWorker: true` each worker loads its own copy instead.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism, constants as osConstants } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import { findKind } from '../../adapters/registry.js';
import type { ServedEngines, SharedEngine } from '../backend/backend-kind.js';
import { ConfigError } from '../config/config-checks.js';
import type { BackendCommon, ProxyConfig } from '../config/settings.js';
import type { RuntimeOptions } from '../runtime/create-runtime.js';
import type { Logger } from '../logging/logger.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { checkBeforeStart } from './check-before-start.js';
import { checkOpenRelay } from './open-relay.js';

/**
 * `--workers`: a count, or `auto` for one per core this process may use.
 * @example parseWorkers('auto') // 2 on a 2-core machine
 */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const count = Number(value);
  if (!/^\d+$/.test(value) || !Number.isInteger(count) || count < 1 || count > 1024)
    throw new ConfigError('--workers', 'must be a number of processes (1 or more) or auto (one per core)');
  return count;
}

/** The backends whose engine the workers share, by kind (in the config's order): a kind's `sharedEngine` says which. */
function sharedEngines(config: ProxyConfig): { engine: SharedEngine; backends: Map<string, BackendCommon> }[] {
  const byKind = new Map<SharedEngine, Map<string, BackendCommon>>();
  for (const [name, settings] of Object.entries(config.backends)) {
    const engine = findKind(settings.kind)?.sharedEngine;
    if (!engine?.shares(settings)) continue;
    if (!byKind.has(engine)) byKind.set(engine, new Map());
    byKind.get(engine)?.set(name, settings);
  }
  return [...byKind].map(([engine, backends]) => ({ engine, backends }));
}

/** The backends whose engine the workers share: today the `llama-cpp` ones without `perWorker: true`. */
export function sharedEngineBackends(config: ProxyConfig): string[] {
  return sharedEngines(config).flatMap(({ backends }) => [...backends.keys()]);
}

/** The name callers and tests know. */
export const sharedLlamaBackends = sharedEngineBackends;

/** Messages between the primary and its workers, besides prom-client's and the shared engine's. */
type ClusterMessage =
  | { dialectProxy: 'metrics'; call: number }
  | { dialectProxy: 'metrics-text'; call: number; text?: string; error?: string }
  | { dialectProxy: 'ready' }
  | { dialectProxy: 'start-failed'; message: string }
  | { dialectProxy: 'shutdown' };

function isClusterMessage(message: unknown): message is ClusterMessage {
  return typeof message === 'object' && message !== null && 'dialectProxy' in message;
}

export interface PrimaryOptions {
  workers: number;
  host: string;
  port?: number;
  logger: Logger;
}

/**
 * The in-memory response store lives in one process: under `--workers N` a follow-up
 * (`previous_response_id`, `GET /v1/responses/{id}`) would reach another worker, which never saw it.
 * The redis store is shared by every process, so it runs under any number.
 */
export function checkResponseStoreShared(config: ProxyConfig, workers: number): void {
  if (workers > 1 && config.responses.store?.kind === 'memory') {
    throw new ConfigError(
      'responses.store.kind',
      `memory keeps responses in one process, and --workers ${workers} runs ${workers}: a follow-up would reach a worker that never saw the response. Run one process, or a store the processes share (kind: redis).`,
    );
  }
}

export interface PrimaryOutcome {
  /** 0 after a graceful shutdown in which every worker exited 0, 1 when one failed to start or to stop cleanly. */
  exitCode: number;
  /** Why the server could not start (the first worker's reason, or the shared engine's), to print once. */
  startFailure?: string;
}

/** Runs the primary until the workers have stopped. */
export async function runPrimary(config: ProxyConfig, { workers: count, host, logger }: PrimaryOptions): Promise<PrimaryOutcome> {
  checkOpenRelay(host, config.server); // before forking: each worker would refuse the same way
  checkBeforeStart(config);
  checkResponseStoreShared(config, count);
  const aggregator = new AggregatorRegistry();
  const served: ServedEngines[] = [];
  let stopping = false;
  let failed = false;
  let startFailure: string | undefined;
  /** The first start-up failure stops every worker; the command prints it, once. */
  const failStart = (message: string) => {
    if (startFailure !== undefined) return;
    startFailure = message;
    failed = true;
    stop();
  };
  for (const { engine, backends } of sharedEngines(config)) {
    const engines = await engine.serve(backends);
    served.push(engines);
    const shared = [...backends.keys()];
    logger.info(
      `${engine.label} backend${shared.length === 1 ? '' : 's'} ${shared.join(', ')}: one model in memory, shared by the ${count} workers`,
    );
    engines.start().catch((error: unknown) => failStart(`a backend failed to start: ${(error as Error).message}`));
  }
  const closeEngines = async (): Promise<void> => {
    await Promise.all(served.map((engines) => engines.close()));
  };

  const listening = new Set<number>();
  const ready = new Set<number>();
  let announced = false;
  let restartDelayMs = 250;

  const fork = (): Worker => {
    const worker = cluster.fork();
    for (const engines of served) engines.watch(worker);
    worker.on('message', (message: unknown) => {
      if (!isClusterMessage(message)) return;
      if (message.dialectProxy === 'metrics') {
        aggregator.clusterMetrics().then(
          (text) => send(worker, { dialectProxy: 'metrics-text', call: message.call, text }),
          (error: unknown) => send(worker, { dialectProxy: 'metrics-text', call: message.call, error: (error as Error).message }),
        );
      } else if (message.dialectProxy === 'start-failed') {
        failStart(message.message);
      } else if (message.dialectProxy === 'ready') {
        ready.add(worker.id);
        if (ready.size === count && !announced) {
          announced = true;
          logger.info(`backends ready in all ${count} workers`);
        }
      }
    });
    return worker;
  };

  cluster.on('listening', (worker, address) => {
    listening.add(worker.id);
    restartDelayMs = 250;
    if (listening.size === count) {
      const bound = address.address || host;
      logger.info(`dialect-proxy: ${count} workers listening on http://${bound.includes(':') ? `[${bound}]` : bound}:${address.port}`);
    }
  });

  const done = new Promise<PrimaryOutcome>((resolve) => {
    let finished = false;
    const finish = async () => {
      if (finished) return;
      finished = true;
      await closeEngines();
      resolve({ exitCode: failed ? 1 : 0, ...(startFailure !== undefined ? { startFailure } : {}) });
    };
    cluster.on('exit', (worker, code, signal) => {
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (stopping) {
        if (code !== 0) failed = true;
        // After a start-up failure, its one line says it all.
        if (startFailure === undefined) logger.info(`worker ${worker.id} stopped (${how})`);
        if (Object.keys(cluster.workers ?? {}).length === 0) void finish();
        return;
      }
      if (!listening.has(worker.id)) {
        // It never served: the same start-up would fail again (the port, the config). Stop everything,
        // after a moment: its own reason, sent just before it exited, may still be on its way.
        setTimeout(() => {
          failStart(`worker ${worker.id} failed to start (${how})`);
          if (Object.keys(cluster.workers ?? {}).length === 0) void finish();
        }, 100);
        return;
      }
      listening.delete(worker.id);
      ready.delete(worker.id);
      logger.warn(`worker ${worker.id} exited (${how}); starting another in ${restartDelayMs} ms`);
      const delay = restartDelayMs;
      restartDelayMs = Math.min(30_000, restartDelayMs * 2);
      setTimeout(() => {
        if (!stopping) fork();
      }, delay);
    });
  });

  function stop(): void {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) if (worker) send(worker, { dialectProxy: 'shutdown' });
    // Each worker ends its own requests within the grace; this is only the backstop.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
    }, config.server.shutdownGraceMs + 15_000).unref();
  }

  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // `timeout` and some supervisors send the signal to the process and to its group: one insistence, not two.
    if (signalled && Date.now() - signalled < 200) return;
    if (signalled) {
      logger.warn(`${signal} again: exiting now`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      if (served.length > 0) void closeEngines().finally(() => process.exit(128 + osConstants.signals[signal]));
      return;
    }
    signalled = Date.now();
    logger.info(`${signal}: shutting down ${count} workers (a second signal exits at once)`);
    stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  for (let i = 0; i < count; i++) fork();
  return done;
}

function send(worker: Worker, message: ClusterMessage): void {
  if (worker.isConnected()) worker.send(message, undefined, () => undefined);
}

/** In a worker: tells the primary why this worker cannot start (it prints the first reason, once); resolves once sent. */
export function reportStartFailure(message: string): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send({ dialectProxy: 'start-failed', message } satisfies ClusterMessage, undefined, undefined, () => resolve());
  });
}

export interface WorkerSetup {
  /** For `startServer`: the metrics registry the primary gathers, and `/metrics` answered for every worker. */
  options: Pick<RuntimeOptions, 'metrics' | 'metricsText'>;
  /** Tells the primary that this worker's backends are ready. */
  ready(): void;
  /** Calls `shutdown` when the primary asks this worker to stop. */
  onShutdown(shutdown: () => void): void;
}

/** In a worker process (cluster.isWorker): the wiring to the primary. Call before `startServer`. */
export async function setUpWorker(config: ProxyConfig): Promise<WorkerSetup> {
  const metrics = new ProxyMetrics();
  AggregatorRegistry.setRegistries([metrics.registry]);
  new AggregatorRegistry(); // answers the primary's requests for this worker's metrics
  for (const { engine, backends } of sharedEngines(config)) await engine.relay(new Set(backends.keys()));
  const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextCall = 1;
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message) || message.dialectProxy !== 'metrics-text') return;
    const pending = waiting.get(message.call);
    waiting.delete(message.call);
    if (message.text !== undefined) pending?.resolve(message.text);
    else pending?.reject(new Error(message.error ?? 'no metrics'));
  });
  const tell = (message: ClusterMessage) => process.send?.(message, undefined, undefined, () => undefined);
  return {
    options: {
      metrics,
      metricsText: () =>
        new Promise<string>((resolve, reject) => {
          const call = nextCall++;
          const timer = setTimeout(() => {
            waiting.delete(call);
            reject(new Error('the primary process did not answer for the metrics'));
          }, 10_000);
          waiting.set(call, {
            resolve: (text) => {
              clearTimeout(timer);
              resolve(text);
            },
            reject: (error) => {
              clearTimeout(timer);
              reject(error);
            },
          });
          tell({ dialectProxy: 'metrics', call });
        }),
    },
    ready: () => tell({ dialectProxy: 'ready' }),
    onShutdown(shutdown) {
      process.on('message', (message: unknown) => {
        if (isClusterMessage(message) && message.dialectProxy === 'shutdown') shutdown();
      });
    },
  };
}
