/** Builds the runtime from a checked config: one adapter per backend, found through the kind registry. */
import { findKind } from '../../adapters/registry.js';
import type { ProxyConfig } from '../config/settings.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { proxyShuttingDown } from '../errors/catalogue.js';
import { ProxyMetrics } from '../metrics/proxy-metrics.js';
import { FanOutSlots } from '../pipeline/plan/emulate/fan-out-slots.js';
import { InFlight } from '../pipeline/in-flight.js';
import { closeBackends, type ProxyRuntime } from '../pipeline/runtime.js';
import { RouteTable, type Backend } from '../pipeline/plan/route-table.js';
import { createResponseStore } from '../response-store/create-store.js';
import { BackgroundRuns } from '../response-store/background-runs.js';
import { createRequestValidator } from '../validation/create-validator.js';
import { resolveTelemetry } from '../telemetry/resolve-telemetry.js';
import { createSealer } from './create-sealer.js';

export interface RuntimeOptions {
  logger?: Logger;
  /** Where the proxy counts what it does; the middleware makes one and exposes its registry. */
  metrics?: ProxyMetrics;
  /** What `GET /metrics` serves instead of `metrics`' own text: under `--workers`, every process's, aggregated (src/http/cluster.ts). */
  metricsText?: () => Promise<string>;
}

export async function createRuntime(config: ProxyConfig, options: RuntimeOptions = {}): Promise<ProxyRuntime> {
  const logger = options.logger ?? createLogger({ level: config.server.logLevel });
  const telemetry = resolveTelemetry(config.telemetry, process.env); // first: a bad OTEL_* variable fails before models load
  // Backends first: a model's load is the long pole of a start; the validators load meanwhile.
  const starting = createBackends(config, { start: true });
  starting.catch(() => undefined); // awaited below
  // Lazy: each dialect's validators load on its first request.
  const validator = await createRequestValidator({ lazy: true }).catch(async (error: unknown) => {
    await starting.then(closeBackends, () => undefined);
    throw error;
  });
  const backends = await starting;
  const inFlight = new InFlight();
  const metrics = options.metrics ?? new ProxyMetrics();
  metrics.watch([...backends.values()].map(({ name, adapter }) => ({ name, ...adapter.stats })));
  const responseStore = createResponseStore(config.responses.store, { observer: metrics, log: logger });
  const backgroundRuns = new BackgroundRuns(config.limits);
  metrics.watchResponseState({
    backgroundRuns: () => backgroundRuns.size,
    store: () => responseStore?.usage?.(),
    storeHealth: () => responseStore?.health?.(),
  });
  // The SDK is imported only when tracing is on: off, nothing of OpenTelemetry is loaded.
  const tracing =
    telemetry &&
    (await (
      await import('../telemetry/start-tracing.js')
    ).startTracing(telemetry, { providerOf: (kind) => findKind(kind)?.provider ?? kind }));
  if (telemetry) logger.info('tracing on', { protocol: telemetry.protocol, service: telemetry.serviceName });
  return {
    ...(responseStore ? { responseStore } : {}),
    backgroundRuns,
    fanOut: { perRequest: config.limits.fanOutPerRequest, process: fanOutSlots(config) },
    metrics,
    config,
    routes: new RouteTable(config.routes, backends),
    backends,
    validator,
    dialectContext: { limits: config.limits, sealer: createSealer(config.responses.encryptionKey, logger) },
    logger,
    inFlight,
    ...(tracing ? { tracing } : {}),
    endRequests: () => inFlight.end(proxyShuttingDown()),
    close: async () => {
      // A background run has no caller connection whose close would end it: without this an upstream that hangs holds close() forever.
      backgroundRuns.abortAll(proxyShuttingDown());
      await closeBackends(backends);
      await responseStore?.close?.();
      await tracing?.shutdown();
    },
  };
}

/** The process's fan-out slots; a key's share only between keys (one owner's bound is the process's). */
function fanOutSlots({ limits, server }: ProxyConfig): FanOutSlots {
  const perKey = server.apiKeys.length >= 2 ? { perKey: limits.fanOutPerKey } : {};
  return new FanOutSlots({ perProcess: limits.fanOutPerProcess, ...perKey });
}

/** One adapter per configured backend; `start` loads models and learns their templates (a dry run needs neither). */
export async function createBackends(config: Pick<ProxyConfig, 'backends'>, options: { start: boolean }): Promise<Map<string, Backend>> {
  const built = await Promise.all(
    Object.entries(config.backends).map(async ([name, settings]) => {
      const kind = findKind(settings.kind);
      if (!kind) throw new Error(`backend "${name}": no backend kind "${settings.kind}" (adapters/registry.ts)`);
      const adapter = await kind.create(name, settings);
      if (options.start) await adapter.start?.();
      return { name, settings, adapter };
    }),
  );
  return new Map(built.map((backend) => [backend.name, backend]));
}
