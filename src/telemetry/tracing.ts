/**
 * What the pipeline asks of tracing, as types only: the pipeline imports this
 * file and never the SDK. The runtime holds a `Tracing` only when tracing is
 * on (start-tracing.ts, loaded on demand); with it off, each hook is one
 * `undefined` check.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { AdapterContext, BackendCapabilities } from '../backend/adapter.js';
import type { ProxyError } from '../errors/proxy-error.js';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import type { NeutralResult, Usage } from '../model/result.js';
import type { StreamBatches } from '../model/stream-event.js';

export interface Tracing {
  /** A span for one caller request, continuing the caller's trace (`traceparent`, `tracestate`) when it sent one. */
  startRequest(start: { dialect: string; endpoint: Endpoint; requestId: string; headers: IncomingHttpHeaders }): RequestTrace;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}

/** What tracing learns of the kinds from the runtime (tracing sees no registry). */
export interface TracingOptions {
  /** `gen_ai.provider.name` of a backend of this kind (`BackendKind.provider`, else the kind's name). */
  providerOf(kind: string): string;
}

/** What the plan made of a request (src/pipeline/plan/plan.ts's Plan): the request, the endpoint it went to and how, its notes. */
export interface PlanFacts {
  request: NeutralRequest;
  upstream: Endpoint;
  mode: 'native' | 'chatOverCompletions' | 'completionsOverChat';
  notes: readonly { kind: string }[];
}

/** One backend's plan for the request, as a span reads it (structural: the pipeline's Plan and Backend fit). */
export interface PlannedAttempt {
  backend: { name: string; settings: { kind: string; dropUnsupported?: boolean }; adapter: { capabilities: BackendCapabilities } };
  plan: PlanFacts;
}

/** How the request ended, from the request's record. */
export interface RequestOutcome {
  status: number;
  /** The failure the caller got, or the error frame that ended a stream. */
  error?: ProxyError;
  usage?: Usage;
  ttftMs?: number;
  /** The backends tried, in order. */
  tried: readonly string[];
}

export interface RequestTrace {
  /** Hex ids of the request's span, for its log line. */
  readonly traceId: string;
  readonly spanId: string;
  routed(request: NeutralRequest, route: string): void;
  /** A backend's plan is about to start (each fallback is one more). */
  planned(attempt: PlannedAttempt): void;
  retrying(failure: ProxyError): void;
  fellBack(from: string, to: string, failure: ProxyError): void;
  /** A whole answer. */
  answered(result: NeutralResult): void;
  /** A stream's events as they pass, for the answer's id, model, finish reasons (and text, when captured). */
  watchStream(batches: StreamBatches): StreamBatches;
  /** The backend's work as child spans (AdapterContext.trace). */
  readonly work: NonNullable<AdapterContext['trace']>;
  /** Ends the span: once, when the request's record finishes (a stream's after its last event). */
  end(outcome: RequestOutcome): void;
}
