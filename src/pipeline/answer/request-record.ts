/**
 * What the log line and the metrics say about one request, gathered as it
 * goes: which backends were tried, which is working on it now (counted in
 * flight there), the timings and the outcome. `finish` writes them once.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect } from '../../dialects/dialect.js';
import { failureOf, type ProxyError } from '../../errors/proxy-error.js';
import { NO_ROUTE } from '../../metrics/proxy-metrics.js';
import type { NeutralRequest } from '../../model/request.js';
import type { NeutralResult } from '../../model/result.js';
import type { StreamBatches } from '../../model/stream-event.js';
import type { RequestTrace } from '../../telemetry/tracing.js';
import type { Plan } from '../plan/plan.js';
import { BackendFailure } from '../plan/fall-back.js';
import { RequestMeter } from './request-meter.js';
import type { Backend, RouteMatch } from '../plan/route-table.js';
import type { ProxyRuntime } from '../runtime.js';

export class RequestRecord {
  readonly meter = new RequestMeter();
  /** The backends tried, in order. */
  readonly tried: string[] = [];
  /** The log line's fields. */
  private readonly log: Record<string, unknown>;
  private route = NO_ROUTE;
  private backend?: string;
  private status?: number;
  /** The backend working on the request now, counted in flight while it does. */
  private serving?: string;
  /** The request's span, when tracing is on (src/telemetry/). */
  readonly trace?: RequestTrace;
  private failure?: ProxyError;

  constructor(
    private readonly runtime: ProxyRuntime,
    private readonly dialect: Dialect,
    readonly requestId: string,
    headers: IncomingHttpHeaders = {},
  ) {
    this.log = { requestId, dialect: dialect.name };
    if (!runtime.tracing) return;
    this.trace = runtime.tracing.startRequest({ dialect: dialect.name, endpoint: dialect.endpoint, requestId, headers });
    Object.assign(this.log, { trace_id: this.trace.traceId, span_id: this.trace.spanId });
  }

  /** The request is parsed and routed. */
  routed(request: NeutralRequest, match: RouteMatch): void {
    this.log.model = request.model;
    this.route = match.route?.model ?? NO_ROUTE;
    this.trace?.routed(request, this.route);
  }

  /** A backend's plan is about to start. */
  planned(plan: Plan, backend: Backend): void {
    this.trace?.planned({ plan, backend });
    // The lossy changes (x-dialect-warnings) go in the request's log line too: offered is not forced (docs/fields.md).
    if (plan.warnings.length > 0) this.log.warnings = plan.warnings;
    else delete this.log.warnings;
  }

  /** Answered as a dry run (nothing sent). */
  dryRun(backend: string, status: number): void {
    Object.assign(this.log, { backend, dryRun: true });
    this.backend = backend;
    this.status = status;
  }

  /** A background run: answered at once, it runs on under this id. */
  detached(id: string): void {
    this.log.background = id;
  }

  /** A backend takes its turn (its plan may still refuse the request). */
  trying(backend: Backend): void {
    this.tried.push(backend.name);
    this.backend = backend.name;
    this.serve(backend.name);
  }

  retrying(failure: ProxyError): void {
    const backend = this.backend as string;
    this.runtime.metrics.retried(backend, failure);
    this.trace?.retrying(failure);
    this.runtime.logger.info('retrying', {
      requestId: this.requestId,
      backend,
      status: failure.status,
      reason: failure.code ?? failure.type,
    });
  }

  fellBack(from: Backend, to: Backend, failure: ProxyError): void {
    this.runtime.metrics.failed(from.name, failure);
    this.runtime.metrics.fellBack(this.route, from.name, to.name);
    this.trace?.fellBack(from.name, to.name, failure);
    this.runtime.logger.warn('falling back', {
      requestId: this.requestId,
      from: from.name,
      to: to.name,
      status: failure.status,
      reason: failure.code ?? failure.type,
    });
  }

  streaming(): void {
    this.log.stream = true;
  }

  answered(result: NeutralResult): void {
    this.status = 200;
    this.trace?.answered(result);
  }

  /** A stream's events, watched for its span when tracing is on. */
  watchStream(batches: StreamBatches): StreamBatches {
    return this.trace ? this.trace.watchStream(batches) : batches;
  }

  /** A stream went out as a 200; one the caller left is a 499, one that then failed says so. */
  streamEnded(callerLeft: boolean): void {
    this.status = callerLeft ? 499 : 200;
    const error = this.meter.streamError;
    if (!error) return;
    this.failure = error;
    this.log.error = `${error.code ?? error.type}: ${error.message}`;
    if (error.status >= 500) this.runtime.metrics.failed(this.backend as string, error);
  }

  /** The failure as the caller gets it, recorded: a backend that fails is one warning, no stack; only the proxy's own failure is an error with its stack. */
  failed(thrown: unknown, signal: AbortSignal): ProxyError {
    const fromBackend = thrown instanceof BackendFailure;
    const error = failureOf(fromBackend ? thrown.failure : thrown, signal);
    this.status = error.status;
    this.failure = error;
    this.log.error = error.message;
    const { logger, metrics } = this.runtime;
    if (fromBackend && (error.status === 429 || error.status >= 500)) metrics.failed(thrown.backend.name, error);
    if (error.code === 'internal_error') {
      const cause = fromBackend ? thrown.failure.cause : thrown;
      logger.error('request failed', { requestId: this.requestId, error: (cause as Error)?.stack ?? String(cause) });
    } else if (error.status >= 500 || error.status === 429) {
      logger.warn('backend failed', {
        requestId: this.requestId,
        backend: this.backend,
        status: error.status,
        reason: error.code ?? error.type,
        // Not `message`: winston would append it to the line's own message.
        error: error.message,
      });
    }
    return error;
  }

  /** The request is over: its metrics and its log line. */
  finish(): void {
    const { meter, runtime } = this;
    this.serve(undefined);
    meter.end();
    if (this.tried.length > 1) this.log.tried = this.tried;
    runtime.metrics.answered({
      dialect: this.dialect.name,
      backend: this.backend ?? NO_ROUTE,
      route: this.route,
      status: this.status ?? 500,
      durationMs: meter.latencyMs,
      ttftMs: meter.timeToFirstTokenMs,
      usage: meter.usage,
    });
    this.trace?.end({
      status: this.status ?? 500,
      ...(this.failure ? { error: this.failure } : {}),
      ...(meter.usage ? { usage: meter.usage } : {}),
      ...(meter.timeToFirstTokenMs !== undefined ? { ttftMs: meter.timeToFirstTokenMs } : {}),
      tried: this.tried,
    });
    // winston formats (redacts, stamps) an entry before its transports drop it for its level: not built at all then.
    if (runtime.logger.isLevelEnabled('info'))
      runtime.logger.info('request', {
        ...this.log,
        backend: this.backend,
        status: this.status,
        promptTokens: meter.usage?.promptTokens,
        completionTokens: meter.usage?.completionTokens,
        latencyMs: Math.round(meter.latencyMs),
        ttftMs: meter.timeToFirstTokenMs === undefined ? undefined : Math.round(meter.timeToFirstTokenMs),
      });
  }

  private serve(name: string | undefined): void {
    const { metrics } = this.runtime;
    if (this.serving !== undefined) metrics.finished(this.serving);
    this.serving = name;
    if (name !== undefined) metrics.started(name);
  }
}
