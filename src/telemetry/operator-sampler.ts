/**
 * Who decides which requests are traced. The W3C `traceparent` a caller sends
 * carries a sampled flag, and the `parentbased_*` samplers follow it: any
 * caller could have every request traced (ratio 0.0001: 200 requests gave 400
 * spans), and a ratio sampler reads the trace id, which the caller picks too
 * (`…0001` passes any ratio). So unless the operator says
 * `telemetry.honourCallerSampling`, the caller's trace is continued (its id
 * and parent kept, so traces join) but the operator's sampler decides it, as
 * it would a trace of its own, and a ratio is drawn at random, not read from
 * the caller's id. The proxy's own spans under the request's follow it.
 */
import type { Sampler, SamplingResult } from '@opentelemetry/sdk-trace-base';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';

export interface SamplerSettings {
  /** As OTEL_TRACES_SAMPLER names them (check-telemetry.ts's SAMPLERS, checked there and in resolve-telemetry.ts). */
  name: string;
  ratio?: number;
}

/**
 * @example
 * new BasicTracerProvider({ sampler: operatorSampler(settings.sampler ?? samplerFromEnv(process.env), false) });
 */
export function operatorSampler({ name, ratio = 1 }: SamplerSettings, honourCaller: boolean): Sampler {
  const off = name.endsWith('always_off');
  const byRatio = name.endsWith('traceidratio');
  const root = off ? new AlwaysOffSampler() : byRatio ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  if (honourCaller) return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
  const caller = off ? new AlwaysOffSampler() : byRatio ? new DrawnRatioSampler(ratio) : new AlwaysOnSampler();
  // Local parents (the request's span, for the backend's work) are followed whatever the name says.
  return new ParentBasedSampler({ root, remoteParentSampled: caller, remoteParentNotSampled: caller });
}

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the SDK reads them (a missing or bad ratio is 1); resolve-telemetry.ts checked the name. */
export function samplerFromEnv(env: NodeJS.ProcessEnv): SamplerSettings {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG);
  return { name, ...(env.OTEL_TRACES_SAMPLER_ARG && ratio >= 0 && ratio <= 1 ? { ratio } : {}) };
}

/** A ratio drawn per trace: the caller's trace id is the caller's choice, not a draw. */
class DrawnRatioSampler implements Sampler {
  constructor(private readonly ratio: number) {}

  shouldSample(): SamplingResult {
    return { decision: Math.random() < this.ratio ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }

  toString(): string {
    return `DrawnRatioSampler{${this.ratio}}`;
  }
}
