/**
 * Tracing switched on: the SDK (loaded only here, and this file only when
 * resolve-telemetry.ts says so), an OTLP/HTTP exporter for the chosen
 * protocol behind a batching processor, the W3C trace-context propagator.
 * The provider is the proxy's own, not registered globally, so a host app's
 * OpenTelemetry set-up is left as it is.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { findPackageRoot } from '../config/package-root.js';
import { operatorSampler, samplerFromEnv } from './operator-sampler.js';
import { RequestSpan } from './request-span.js';
import type { ResolvedTelemetry } from './resolve-telemetry.js';
import type { Tracing, TracingOptions } from './tracing.js';

/**
 * @example
 * const settings = resolveTelemetry(config.telemetry, process.env);
 * const tracing = settings && (await import('./start-tracing.js')).startTracing(settings, { providerOf: (kind) => kind });
 */
export async function startTracing(settings: ResolvedTelemetry, { providerOf }: TracingOptions): Promise<Tracing> {
  const version = packageVersion();
  const options = { ...(settings.url ? { url: settings.url } : {}), ...(settings.headers ? { headers: settings.headers } : {}) };
  const exporter =
    settings.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options)
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(options);
  const detected = detectResources({ detectors: [envDetector] });
  const named = process.env.OTEL_SERVICE_NAME || !detected.attributes['service.name'];
  const resource = defaultResource()
    .merge(detected)
    .merge(resourceFromAttributes({ ...(named ? { 'service.name': settings.serviceName } : {}), 'service.version': version }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter)],
    // The operator's sampler decides, not the sampled flag of a caller's traceparent (unless honourCallerSampling).
    sampler: operatorSampler(settings.sampler ?? samplerFromEnv(process.env), settings.honourCallerSampling === true),
  });
  const tracer = provider.getTracer('dialect-proxy', version);
  const propagator = new W3CTraceContextPropagator();
  const spanOptions = { tracer, propagator, captureContent: settings.captureContent, providerOf };
  return {
    startRequest: (start) => new RequestSpan(spanOptions, start),
    shutdown: () => provider.shutdown(),
  };
}

function packageVersion(): string {
  const root = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
}
