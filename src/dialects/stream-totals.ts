/**
 * What both dialect streams keep across events: usage (summed, as fan-out
 * parts each report theirs), the latest perf metrics, and how many choices
 * have ended, so `perf_metrics` ride the final chunk with a finish_reason.
 */
import type { NeutralRequest } from '../model/request.js';
import { addUsage, type PerfMetrics, type Usage } from '../model/result.js';
import type { StreamEvent, StreamEventOf } from '../model/stream-event.js';
import { countChoices } from '../model/prompt.js';
import { perfMetricsBody } from './perf-metrics-body.js';
import { usageBody } from './usage-body.js';

export class StreamTotals {
  private usage?: Usage;
  private perf?: PerfMetrics;
  private ended = 0;
  private readonly expected: number;

  constructor(private readonly request: NeutralRequest) {
    this.expected = countChoices(request);
  }

  /** Takes `usage` and `perf` events (they produce no chunk of their own); true when it took one. */
  take(event: StreamEvent): event is StreamEventOf<'usage'> | StreamEventOf<'perf'> {
    if (event.type === 'usage') this.usage = addUsage(this.usage, event.usage);
    else if (event.type === 'perf') this.perf = { ...this.perf, ...event.perf };
    else return false;
    return true;
  }

  /** Counts a finished choice; on the last, `{perf_metrics}` when the caller asked (else `{}`), from what has arrived. */
  endChoice(): { perf_metrics?: Record<string, unknown> } {
    this.ended += 1;
    return this.ended >= this.expected && this.request.perfMetricsInBody ? { perf_metrics: perfMetricsBody(this.perf, this.usage) } : {};
  }

  /** The closing chunk, `choices: []` with the usage, when the caller asked and a backend counted. */
  usageChunk(head: object | undefined, options: { openaiDetails: boolean }): Record<string, unknown> | undefined {
    if (!this.request.stream?.includeUsage || !this.usage || !head) return undefined;
    return { ...head, choices: [], usage: usageBody(this.usage, options) };
  }
}
