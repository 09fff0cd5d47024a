/**
 * The span of one caller request (SERVER): named and attributed as the GenAI
 * conventions say for the caller's view (its dialect's operation, the model it
 * asked for, the answer and its usage), with the proxy's own story beside it:
 * route, backend, the backends tried, retries, what the translation changed,
 * time to first token. The backend's work hangs under it (work-span.ts).
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  defaultTextMapGetter,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { NeutralResult } from '../model/result.js';
import type { StreamBatches } from '../model/stream-event.js';
import { SPAN_LIMITS, boundAttributes, cutText } from './bound-attributes.js';
import { capturedChoicesOf, inputAttributes, outputAttributes } from './content-attributes.js';
import { errorTypeOf } from './error-type.js';
import {
  GEN_AI,
  PROXY,
  answerAttributes,
  answerFactsOf,
  operationOf,
  requestAttributes,
  usageAttributes,
  type AnswerFacts,
} from './genai-attributes.js';
import type { PlannedAttempt, RequestOutcome, RequestTrace, Tracing, TracingOptions } from './tracing.js';
import { countTranslation } from './translation-counts.js';
import { watchStream, type StreamSeen } from './watch-stream.js';
import { WorkSpan, type WorkTarget } from './work-span.js';

export interface RequestSpanOptions extends TracingOptions {
  tracer: Tracer;
  propagator: W3CTraceContextPropagator;
  captureContent: boolean;
}

export class RequestSpan implements RequestTrace {
  readonly traceId: string;
  readonly spanId: string;
  private readonly span: Span;
  private readonly context: Context;
  private readonly operation: string;
  private target?: WorkTarget;
  private facts?: AnswerFacts;
  private seen?: StreamSeen;
  private retries = 0;
  private ended = false;

  constructor(
    private readonly options: RequestSpanOptions,
    start: Parameters<Tracing['startRequest']>[0],
  ) {
    const parent = options.propagator.extract(ROOT_CONTEXT, start.headers, defaultTextMapGetter);
    this.operation = operationOf(start.endpoint);
    this.span = options.tracer.startSpan(
      this.operation,
      {
        kind: SpanKind.SERVER,
        attributes: { [GEN_AI.operation]: this.operation, [PROXY.dialect]: start.dialect, [PROXY.requestId]: start.requestId },
      },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
    ({ traceId: this.traceId, spanId: this.spanId } = this.span.spanContext());
  }

  /** AdapterContext.trace: an arrow, as adapters call it off the context object. */
  readonly work = (work: { url?: string }): WorkSpan => {
    const target = this.target ?? { operation: this.operation, model: '', provider: '', backend: '' };
    return new WorkSpan({ tracer: this.options.tracer, parent: this.context, propagator: this.options.propagator, target, ...work });
  };

  routed(request: NeutralRequest, route: string): void {
    if (!this.span.isRecording()) return; // unsampled: nothing to name or attribute
    // The caller names the model and the stops: of any length, they would make a span (and its export) as long.
    this.span.updateName(`${this.operation} ${cutText(request.model, SPAN_LIMITS.textBytes)}`);
    this.span.setAttributes(boundAttributes(requestAttributes(request)));
    this.span.setAttribute(PROXY.route, route);
    if (this.options.captureContent) this.span.setAttributes(inputAttributes(request));
  }

  planned({ backend, plan }: PlannedAttempt): void {
    const { request } = plan;
    if (!this.span.isRecording()) {
      // Not sampled: the children still carry the context upstream; nothing is counted for attributes no one keeps.
      this.target = { operation: this.operation, model: request.model, provider: '', backend: backend.name };
      return;
    }
    const provider = this.options.providerOf(backend.settings.kind);
    const counts = countTranslation(plan, backend.adapter.capabilities);
    // The backend's view: a chat request rendered into a prompt is a text completion there.
    this.target = { operation: operationOf(plan.upstream), model: request.model, provider, backend: backend.name };
    this.span.setAttributes({
      [GEN_AI.provider]: provider,
      [PROXY.backend]: backend.name,
      [PROXY.backendKind]: backend.settings.kind,
      [PROXY.translation]: counts.mode,
      [PROXY.renamed]: counts.renamed,
      [PROXY.converted]: counts.converted,
      [PROXY.emulated]: counts.emulated,
      [PROXY.dropped]: counts.dropped,
    });
  }

  retrying(failure: ProxyError): void {
    this.retries++;
    this.span.addEvent('retry', { backend: this.target?.backend ?? '', 'error.type': errorTypeOf(failure), status: failure.status });
  }

  fellBack(from: string, to: string, failure: ProxyError): void {
    this.span.addEvent('fallback', { from, to, 'error.type': errorTypeOf(failure), status: failure.status });
  }

  answered(result: NeutralResult): void {
    if (!this.span.isRecording()) return; // unsampled: nothing is read of the answer (as of a stream)
    this.facts = answerFactsOf(result);
    if (this.options.captureContent) this.span.setAttributes(outputAttributes(capturedChoicesOf(result)));
  }

  watchStream(batches: StreamBatches): StreamBatches {
    if (!this.span.isRecording()) return batches;
    this.seen = { facts: { finishReasons: [] }, ...(this.options.captureContent ? { choices: [] } : {}) };
    return watchStream(batches, this.seen);
  }

  end({ status, error, usage, ttftMs, tried }: RequestOutcome): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.span.isRecording()) {
      this.span.end(); // unsampled: nothing to attribute
      return;
    }
    const attributes: Attributes = { 'http.response.status_code': status, [PROXY.retries]: this.retries };
    if (tried.length > 0) Object.assign(attributes, { [PROXY.tried]: [...tried], [PROXY.fallbacks]: tried.length - 1 });
    const facts = this.seen?.facts ?? this.facts;
    // A backend may echo the caller's model, or send as many choices as it likes.
    if (facts) Object.assign(attributes, answerAttributes(facts));
    if (usage) Object.assign(attributes, usageAttributes(usage));
    if (ttftMs !== undefined) {
      attributes[PROXY.ttftMs] = ttftMs;
      if (this.seen) attributes[GEN_AI.timeToFirstChunk] = ttftMs / 1000;
    }
    if (error) {
      attributes['error.type'] = errorTypeOf(error);
      // The caller's own mistakes (4xx) are not the proxy's errors (the HTTP server conventions); a broken stream is.
      if (error.status >= 500 || error.status === 429 || status === 200)
        this.span.setStatus({ code: SpanStatusCode.ERROR, message: cutText(error.message, SPAN_LIMITS.messageBytes) });
    }
    this.span.setAttributes(boundAttributes(attributes));
    if (this.seen?.choices) this.span.setAttributes(outputAttributes(this.seen.choices.filter(Boolean)));
    this.span.end();
  }
}
