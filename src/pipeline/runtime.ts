/** Everything built once at start-up and shared by every request (built by src/runtime/create-runtime.ts). */
import type { FanOutBudget } from '../backend/adapter.js';
import type { ProxyConfig } from '../config/settings.js';
import type { Logger } from '../logging/logger.js';
import type { ProxyMetrics } from '../metrics/proxy-metrics.js';
import type { BackgroundRuns } from '../response-store/background-runs.js';
import type { ResponseStore } from '../response-store/response-store.js';
import type { RequestValidator } from '../validation/create-validator.js';
import type { Tracing } from '../telemetry/tracing.js';
import type { InFlight } from './in-flight.js';
import type { DialectContext } from '../dialects/dialect.js';
import type { Backend, RouteTable } from './plan/route-table.js';

export interface ProxyRuntime {
  config: ProxyConfig;
  routes: RouteTable;
  backends: ReadonlyMap<string, Backend>;
  validator: RequestValidator;
  /** What the dialects take from the config: its limits and the sealer. */
  dialectContext: DialectContext;
  logger: Logger;
  metrics: ProxyMetrics;
  /** The Responses API's state (`responses.store`), absent when the proxy is stateless. */
  responseStore?: ResponseStore;
  /** Background responses running in this process (`POST /v1/responses/{id}/cancel` aborts them). */
  backgroundRuns: BackgroundRuns;
  /** Fan-out's budget (`limits.fanOutPerRequest`, and the process's slots shared by every request). */
  fanOut: FanOutBudget;
  /** OpenTelemetry traces: absent unless switched on (src/telemetry/resolve-telemetry.ts). */
  tracing?: Tracing;
  /** The requests being handled. */
  inFlight: InFlight;
  /** Ends every request in flight with a 503 `shutting_down` (its abort reason: streams get an error frame, the rest that error). */
  endRequests(): void;
  close(): Promise<void>;
}

export async function closeBackends(backends: ReadonlyMap<string, Backend>): Promise<void> {
  await Promise.allSettled([...backends.values()].map((backend) => backend.adapter.close?.()));
}
