/**
 * A child span of the request's for one piece of a backend's work: an HTTP
 * try (a CLIENT span whose context goes upstream as `traceparent`) or the
 * bundled worker's generation (INTERNAL). The GenAI attributes are the
 * backend's view: the upstream model, its provider.
 */
import { SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { defaultTextMapSetter } from '@opentelemetry/api';
import type { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { WorkSpan as WorkSpanContract } from '../backend/adapter.js';
import type { Usage } from '../model/result.js';
import { SPAN_LIMITS, cutText } from './bound-attributes.js';
import { errorTypeOf } from './error-type.js';
import { GEN_AI, PROXY, usageAttributes } from './genai-attributes.js';

/** Who the work is for: set by the request's span as each backend's plan starts. */
export interface WorkTarget {
  operation: string;
  model: string;
  provider: string;
  backend: string;
}

export class WorkSpan implements WorkSpanContract {
  readonly headers: Record<string, string> = {};
  private readonly span: Span;
  private code?: number;
  private ended = false;

  constructor(options: { tracer: Tracer; parent: Context; propagator: W3CTraceContextPropagator; target: WorkTarget; url?: string }) {
    const { tracer, parent, propagator, target, url } = options;
    // The model the backend is asked for is the caller's, unless the route renames it.
    const model = cutText(target.model, SPAN_LIMITS.textBytes);
    const attributes: Record<string, string | number> = {
      [GEN_AI.operation]: target.operation,
      [GEN_AI.requestModel]: model,
      [GEN_AI.provider]: target.provider,
      [PROXY.backend]: target.backend,
    };
    if (url) {
      const parsed = new URL(url);
      parsed.username = '';
      parsed.password = '';
      Object.assign(attributes, {
        'http.request.method': 'POST',
        'server.address': parsed.hostname,
        'server.port': Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
        'url.full': parsed.href,
      });
    }
    this.span = tracer.startSpan(`${target.operation} ${model}`, { kind: url ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes }, parent);
    if (url) propagator.inject(trace.setSpan(parent, this.span), this.headers, defaultTextMapSetter);
  }

  status(code: number): void {
    this.code = code;
    this.span.setAttribute('http.response.status_code', code);
  }

  usage(usage: Usage): void {
    this.span.setAttributes(usageAttributes(usage));
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    // An HTTP client span is an error from 400 on (the HTTP conventions); error.type is then the status.
    const type = error !== undefined ? errorTypeOf(error) : this.code !== undefined && this.code >= 400 ? String(this.code) : undefined;
    if (type !== undefined) {
      this.span.setAttribute('error.type', type);
      const message = error instanceof Error ? { message: cutText(error.message, SPAN_LIMITS.messageBytes) } : {};
      this.span.setStatus({ code: SpanStatusCode.ERROR, ...message });
    }
    this.span.end();
  }
}
