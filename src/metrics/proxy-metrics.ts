/**
 * The proxy's Prometheus metrics, in a registry of its own (never prom-client's
 * global one, so two proxies in one process, or a host app's own metrics, do
 * not collide). Label values come only from the configuration (backend names,
 * route patterns) and from fixed sets (dialects, status classes, failure
 * reasons): a caller cannot create series by inventing model names.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReplicaStat } from '../backend/adapter.js';
import type { ProxyError } from '../errors/proxy-error.js';
import { failureReason } from '../errors/failure-reason.js';
import type { Usage } from '../model/result.js';

/** The label for a request that matched no route (an unknown model). */
export const NO_ROUTE = '(none)';

/** Seconds: from a fast cached answer to a reasoning model thinking for minutes. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

export interface RequestOutcome {
  dialect: string;
  /** The backend that answered, or NO_ROUTE. */
  backend: string;
  /** The matched route's model pattern, or NO_ROUTE. */
  route: string;
  /** The HTTP status sent (499 when the client left). */
  status: number;
  durationMs: number;
  ttftMs?: number;
  usage?: Usage;
}

/** Where a backend may be asked for numbers only it knows (its queue, its worker's restarts). */
export interface BackendGauges {
  name: string;
  queued?(): number;
  restarts?(): number;
  replicas?(): readonly ReplicaStat[];
}

/** Where the Responses API's state is counted: the background runs of this process and what the store holds. */
export interface ResponseStateGauges {
  backgroundRuns(): number;
  store?(): { responses: number; bytes: number } | undefined;
  /** A store over the network: whether it is connected. */
  storeHealth?(): 'ok' | 'degraded' | undefined;
}

/** Seconds: a store command on the same host, up to one that waits out its command timeout. */
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const REPLICA_STATES = ['healthy', 'ejected', 'down'] as const;

export class ProxyMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'dialect' | 'backend' | 'route' | 'status_class'>;
  private readonly duration: Histogram<'dialect' | 'backend' | 'route'>;
  private readonly ttft: Histogram<'dialect' | 'backend' | 'route'>;
  private readonly promptTokens: Counter<'backend' | 'route'>;
  private readonly completionTokens: Counter<'backend' | 'route'>;
  private readonly inFlight: Gauge<'backend'>;
  private readonly upstreamErrors: Counter<'backend' | 'reason'>;
  private readonly retries: Counter<'backend' | 'reason'>;
  private readonly fallbacks: Counter<'route' | 'from' | 'to'>;
  private readonly timeouts: Counter<'backend'>;
  private readonly clientAborts: Counter<'dialect' | 'backend'>;
  private readonly storeDuration: Histogram<'operation'>;
  private readonly storeErrors: Counter<'operation' | 'reason'>;
  private backends: readonly BackendGauges[] = [];
  private responseState?: ResponseStateGauges;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'dialect_proxy_requests_total',
      help: 'Requests answered, by caller dialect, backend, route and status class.',
      labelNames: ['dialect', 'backend', 'route', 'status_class'],
      registers,
    });
    this.duration = new Histogram({
      name: 'dialect_proxy_request_duration_seconds',
      help: 'Time from the request to the end of the answer.',
      labelNames: ['dialect', 'backend', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.ttft = new Histogram({
      name: 'dialect_proxy_time_to_first_token_seconds',
      help: 'Time from the request to its first generated token.',
      labelNames: ['dialect', 'backend', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.promptTokens = new Counter({
      name: 'dialect_proxy_prompt_tokens_total',
      help: 'Prompt tokens, as the backends report them.',
      labelNames: ['backend', 'route'],
      registers,
    });
    this.completionTokens = new Counter({
      name: 'dialect_proxy_completion_tokens_total',
      help: 'Completion tokens, as the backends report them.',
      labelNames: ['backend', 'route'],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'dialect_proxy_requests_in_flight',
      help: 'Requests being served, by backend.',
      labelNames: ['backend'],
      registers,
    });
    this.upstreamErrors = new Counter({
      name: 'dialect_proxy_upstream_errors_total',
      help: 'Backend failures that reached a caller or a fallback, by reason.',
      labelNames: ['backend', 'reason'],
      registers,
    });
    this.retries = new Counter({
      name: 'dialect_proxy_retries_total',
      help: 'Upstream requests sent again, by the reason of the failed try.',
      labelNames: ['backend', 'reason'],
      registers,
    });
    this.fallbacks = new Counter({
      name: 'dialect_proxy_fallbacks_total',
      help: 'Requests handed from a failing backend to the next of its route.',
      labelNames: ['route', 'from', 'to'],
      registers,
    });
    this.timeouts = new Counter({
      name: 'dialect_proxy_upstream_timeouts_total',
      help: 'Upstream timeouts (any phase), by backend.',
      labelNames: ['backend'],
      registers,
    });
    this.clientAborts = new Counter({
      name: 'dialect_proxy_client_aborts_total',
      help: 'Requests whose caller left before the answer ended.',
      labelNames: ['dialect', 'backend'],
      registers,
    });
    this.storeDuration = new Histogram({
      name: 'dialect_proxy_response_store_duration_seconds',
      help: 'Time each operation of a response store over the network took (redis), failed ones included.',
      labelNames: ['operation'],
      buckets: STORE_BUCKETS,
      registers,
    });
    this.storeErrors = new Counter({
      name: 'dialect_proxy_response_store_errors_total',
      help: 'Operations of a response store over the network that failed (timeout: no answer within commandTimeoutMs; unavailable: not connected, or refused).',
      labelNames: ['operation', 'reason'],
      registers,
    });
    // Read from the backends at each scrape (prom-client calls `collect` with the gauge as `this`).
    const backends = () => this.backends;
    new Gauge({
      name: 'dialect_proxy_queue_depth',
      help: 'Requests waiting for a slot of a backend with a concurrency limit.',
      labelNames: ['backend'],
      registers,
      collect() {
        for (const backend of backends()) if (backend.queued) this.set({ backend: backend.name }, backend.queued());
      },
    });
    new Gauge({
      name: 'dialect_proxy_worker_restarts',
      help: 'Times the bundled llama.cpp worker was restarted after a crash.',
      labelNames: ['backend'],
      registers,
      collect() {
        for (const backend of backends()) if (backend.restarts) this.set({ backend: backend.name }, backend.restarts());
      },
    });
    // A pool's replicas (backends with `urls`); the replica label is a configured URL.
    new Gauge({
      name: 'dialect_proxy_replica_state',
      help: 'Each replica of a pool: 1 for its state (healthy, ejected after failing requests, down by its health probe), 0 for the others.',
      labelNames: ['backend', 'replica', 'state'],
      registers,
      collect() {
        for (const backend of backends()) {
          for (const stat of backend.replicas?.() ?? []) {
            for (const state of REPLICA_STATES)
              this.set({ backend: backend.name, replica: stat.replica, state }, stat.state === state ? 1 : 0);
          }
        }
      },
    });
    new Gauge({
      name: 'dialect_proxy_replica_outstanding',
      help: 'Requests sent to each replica of a pool and not yet finished.',
      labelNames: ['backend', 'replica'],
      registers,
      collect() {
        for (const backend of backends())
          for (const stat of backend.replicas?.() ?? []) this.set({ backend: backend.name, replica: stat.replica }, stat.outstanding);
      },
    });
    new Counter({
      name: 'dialect_proxy_replica_ejections_total',
      help: 'Times failing requests ejected each replica of a pool.',
      labelNames: ['backend', 'replica'],
      registers,
      collect() {
        this.reset();
        for (const backend of backends())
          for (const stat of backend.replicas?.() ?? []) this.inc({ backend: backend.name, replica: stat.replica }, stat.ejections);
      },
    });
    const responseState = () => this.responseState;
    new Gauge({
      name: 'dialect_proxy_background_runs',
      help: 'Background responses (Responses API, background: true) running in this process.',
      registers,
      collect() {
        this.set(responseState()?.backgroundRuns() ?? 0);
      },
    });
    new Gauge({
      name: 'dialect_proxy_response_store_bytes',
      help: 'Bytes the response store holds (the JSON of every stored response), where the store counts them.',
      registers,
      collect() {
        const usage = responseState()?.store?.();
        if (usage) this.set(usage.bytes);
      },
    });
    new Gauge({
      name: 'dialect_proxy_response_store_responses',
      help: 'Responses the response store holds, where the store counts them.',
      registers,
      collect() {
        const usage = responseState()?.store?.();
        if (usage) this.set(usage.responses);
      },
    });
    new Gauge({
      name: 'dialect_proxy_response_store_up',
      help: 'Whether a response store over the network (redis) is connected: 1 or 0.',
      registers,
      collect() {
        const health = responseState()?.storeHealth?.();
        if (health) this.set(health === 'ok' ? 1 : 0);
      },
    });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'dialect_proxy_' });
  }

  /** The backends whose own numbers (queue, restarts) are read at each scrape. */
  watch(backends: readonly BackendGauges[]): void {
    this.backends = backends;
  }

  /** One operation of the response store (src/response-store/redis-connection.ts): its time, and why it failed. */
  storeOperation(operation: string, seconds: number, failure?: 'timeout' | 'unavailable'): void {
    this.storeDuration.observe({ operation }, seconds);
    if (failure) this.storeErrors.inc({ operation, reason: failure });
  }

  /** The Responses API's state, read at each scrape. */
  watchResponseState(state: ResponseStateGauges): void {
    this.responseState = state;
  }

  started(backend: string): void {
    this.inFlight.inc({ backend });
  }

  finished(backend: string): void {
    this.inFlight.dec({ backend });
  }

  answered({ dialect, backend, route, status, durationMs, ttftMs, usage }: RequestOutcome): void {
    this.requests.inc({ dialect, backend, route, status_class: status === 499 ? 'aborted' : `${Math.floor(status / 100)}xx` });
    this.duration.observe({ dialect, backend, route }, durationMs / 1000);
    if (ttftMs !== undefined) this.ttft.observe({ dialect, backend, route }, ttftMs / 1000);
    if (usage) {
      this.promptTokens.inc({ backend, route }, usage.promptTokens);
      this.completionTokens.inc({ backend, route }, usage.completionTokens);
    }
    if (status === 499) this.clientAborts.inc({ dialect, backend });
  }

  /** A backend's failure, whether the caller got it or a fallback took over. */
  failed(backend: string, error: ProxyError): void {
    this.upstreamErrors.inc({ backend, reason: failureReason(error) });
    if (error.type === 'timeout_error') this.timeouts.inc({ backend });
  }

  retried(backend: string, error: ProxyError): void {
    this.retries.inc({ backend, reason: failureReason(error) });
    if (error.type === 'timeout_error') this.timeouts.inc({ backend });
  }

  fellBack(route: string, from: string, to: string): void {
    this.fallbacks.inc({ route, from, to });
  }
}
