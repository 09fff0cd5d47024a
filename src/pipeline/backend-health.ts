/**
 * What `GET /healthz` says of the backends once the proxy is up: `degraded`
 * when a pool of replicas (`urls`) has none in service (each ejected after
 * failed requests, or down by its health probe), naming each such backend and
 * the state of each of its replicas. Still a 200: a health check answers for
 * this process, and an upstream outage is the same for every instance of the
 * proxy, so failing the check would take every instance out of a load
 * balancer (or have an orchestrator restart them all) at once, and turn the
 * proxy's 502s, which name the replicas tried, into refused connections; the
 * routes to other backends would go down with them. Monitors read `status`.
 * A backend with one `url` has no health of its own to report.
 */
import type { ReplicaState } from '../backend/adapter.js';
import type { Backend } from './plan/route-table.js';

export interface BackendHealth {
  status: 'ok' | 'degraded';
  /** With `degraded`: each pool with no replica in service, and its replicas' states. */
  unavailable?: { backend: string; replicas: Record<string, ReplicaState> }[];
}

/**
 * @example backendHealth(runtime.backends) // {status: 'degraded', unavailable: [{backend: 'gpu', replicas: {'http://gpu-1:8000/v1': 'down'}}]}
 */
export function backendHealth(backends: ReadonlyMap<string, Backend>): BackendHealth {
  const unavailable: NonNullable<BackendHealth['unavailable']> = [];
  for (const { name, adapter } of backends.values()) {
    const replicas = adapter.stats?.replicas?.() ?? [];
    if (replicas.length === 0 || replicas.some(({ state }) => state === 'healthy')) continue;
    unavailable.push({ backend: name, replicas: Object.fromEntries(replicas.map(({ replica, state }) => [replica, state])) });
  }
  return unavailable.length > 0 ? { status: 'degraded', unavailable } : { status: 'ok' };
}
