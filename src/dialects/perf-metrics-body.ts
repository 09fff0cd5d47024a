/**
 * Neutral perf metrics -> Fireworks' `perf_metrics` body object (kebab-case
 * names, seconds), as both dialects return it for `perf_metrics_in_response`.
 */
import type { PerfMetrics, Usage } from '../model/result.js';

/** Neutral name -> Fireworks wire name (see `perf_metrics_in_response` in the Fireworks spec). */
export const PERF_WIRE_NAMES: Readonly<Record<Exclude<keyof PerfMetrics, 'backend'>, string>> = {
  promptTokens: 'prompt-tokens',
  cachedPromptTokens: 'cached-prompt-tokens',
  timeToFirstToken: 'server-time-to-first-token',
  processingTime: 'server-processing-time',
  queueTime: 'prefill-queue-duration',
  prefillTime: 'prefill-duration',
  generationTime: 'generation-duration',
};

/**
 * The proxy's own measurements and token counts, then the metrics the backend
 * reported by wire name, which win on a clash: a backend's server-side timing
 * is what its name promises.
 * @example perfMetricsBody({timeToFirstToken: 0.1}, {promptTokens: 5, completionTokens: 2, totalTokens: 7})
 * // {'prompt-tokens': 5, 'server-time-to-first-token': 0.1}
 */
export function perfMetricsBody(perf: PerfMetrics | undefined, usage: Usage | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (usage) {
    body['prompt-tokens'] = usage.promptTokens;
    if (usage.cachedPromptTokens !== undefined) body['cached-prompt-tokens'] = usage.cachedPromptTokens;
  }
  for (const [name, wire] of Object.entries(PERF_WIRE_NAMES) as [keyof typeof PERF_WIRE_NAMES, string][]) {
    const value = perf?.[name];
    if (value !== undefined) body[wire] = value;
  }
  return { ...body, ...perf?.backend };
}
