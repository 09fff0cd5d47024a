/**
 * The proxy's own timings and token counts for one request: they feed the log
 * line, the `fireworks-*` perf headers and `perf_metrics` in bodies.
 */
import type { ProxyError } from '../../errors/proxy-error.js';
import type { PerfMetrics, Usage } from '../../model/result.js';

export class RequestMeter {
  readonly startedAt = performance.now();
  firstTokenAt?: number;
  endedAt?: number;
  usage?: Usage;
  backendPerf?: PerfMetrics;
  /** The error frame that ended a stream after its headers had left. */
  streamError?: ProxyError;

  markFirstToken(): void {
    this.firstTokenAt ??= performance.now();
  }

  end(): void {
    this.endedAt ??= performance.now();
  }

  /** Milliseconds since the request arrived, to the first token. */
  get timeToFirstTokenMs(): number | undefined {
    return this.firstTokenAt === undefined ? undefined : this.firstTokenAt - this.startedAt;
  }

  get latencyMs(): number {
    return (this.endedAt ?? performance.now()) - this.startedAt;
  }

  /** Perf metrics in seconds, as Fireworks reports them; the backend's own ride along. */
  perfMetrics(): PerfMetrics {
    const perf: PerfMetrics = { ...this.backendPerf };
    if (this.usage) perf.promptTokens = this.usage.promptTokens;
    if (this.usage?.cachedPromptTokens !== undefined) perf.cachedPromptTokens = this.usage.cachedPromptTokens;
    const ttft = this.timeToFirstTokenMs;
    if (ttft !== undefined) perf.timeToFirstToken = ttft / 1000;
    perf.processingTime = this.latencyMs / 1000;
    return perf;
  }
}

/** Response headers for non-streamed answers (the Fireworks seed: always sent). */
export function perfHeaders(perf: PerfMetrics): Record<string, string> {
  const headers: Record<string, string> = {};
  if (perf.promptTokens !== undefined) headers['fireworks-prompt-tokens'] = String(perf.promptTokens);
  if (perf.cachedPromptTokens !== undefined) headers['fireworks-cached-prompt-tokens'] = String(perf.cachedPromptTokens);
  if (perf.timeToFirstToken !== undefined) headers['fireworks-server-time-to-first-token'] = perf.timeToFirstToken.toFixed(6);
  if (perf.processingTime !== undefined) headers['fireworks-server-processing-time'] = perf.processingTime.toFixed(6);
  return headers;
}
