/**
 * Whether the proxy traces, and how: the config's `telemetry` section first,
 * the standard `OTEL_*` variables for what it leaves out. Pure and free of the
 * SDK: with neither, the answer is `undefined` and nothing of OpenTelemetry is
 * ever loaded (create-runtime.ts imports start-tracing.ts only for an answer).
 */
import type { TelemetrySettings } from '../config/settings.js';
import { PROTOCOLS, SAMPLERS } from './check-telemetry.js';

export interface ResolvedTelemetry {
  /** The full traces URL when the section names an endpoint; otherwise the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT itself. */
  url?: string;
  protocol: 'http/protobuf' | 'http/json';
  /** From the section; the exporter adds OTEL_EXPORTER_OTLP_(TRACES_)HEADERS itself. */
  headers?: Record<string, string>;
  serviceName: string;
  /** From the section; otherwise start-tracing.ts reads OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (as the SDK would). */
  sampler?: { name: string; ratio?: number };
  /** Only when the section says so: the caller's `traceparent` sampled flag decides (operator-sampler.ts). */
  honourCallerSampling?: true;
  captureContent: boolean;
}

const truthy = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/** Throws (naming the variable) on a protocol the proxy does not ship. */
export function resolveTelemetry(section: TelemetrySettings | undefined, env: NodeJS.ProcessEnv): ResolvedTelemetry | undefined {
  if (truthy(env.OTEL_SDK_DISABLED) || section?.enabled === false) return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return undefined;
  const fromEnv = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (!section && !fromEnv) return undefined;

  const envProtocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL;
  const protocol = section?.protocol ?? envProtocol?.trim() ?? 'http/protobuf';
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    const name = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
    throw new Error(`${name}=${protocol}: the proxy exports traces over ${PROTOCOLS.join(' or ')} only`);
  }
  const sampler = section?.sampler;
  if (sampler === undefined && env.OTEL_TRACES_SAMPLER && !(SAMPLERS as readonly string[]).includes(env.OTEL_TRACES_SAMPLER.trim()))
    throw new Error(`OTEL_TRACES_SAMPLER=${env.OTEL_TRACES_SAMPLER}: must be one of ${SAMPLERS.join(', ')}`);
  return {
    ...(section?.endpoint ? { url: `${section.endpoint.replace(/\/+$/, '')}/v1/traces` } : {}),
    protocol: protocol as ResolvedTelemetry['protocol'],
    ...(section?.headers ? { headers: section.headers } : {}),
    serviceName: section?.serviceName ?? (env.OTEL_SERVICE_NAME?.trim() || 'dialect-proxy'),
    ...(sampler !== undefined
      ? { sampler: { name: sampler, ...(section?.samplerRatio !== undefined ? { ratio: section.samplerRatio } : {}) } }
      : {}),
    ...(section?.honourCallerSampling ? { honourCallerSampling: true as const } : {}),
    captureContent: section?.captureContent ?? truthy(env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
  };
}
