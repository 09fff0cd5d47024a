/** Stream stages between the engine and the dialect serializer; each is AsyncIterable -> AsyncIterable. */
import { ProxyError, toProxyError } from '../errors/proxy-error.js';
import type { StreamEvent } from '../model/stream-event.js';
import type { RequestMeter } from './measure.js';

/**
 * Watches the engine's events: records time to first token and usage for the
 * log line and perf metrics, and turns a failure thrown mid-stream into one
 * `error` event, which ends the stream. (One stage for both: every stage
 * costs a few promise turns per event.)
 */
export async function* observeStream(events: AsyncIterable<StreamEvent>, meter: RequestMeter, signal?: AbortSignal, callerError: (error: ProxyError) => ProxyError = (error) => error): AsyncGenerator<StreamEvent> {
  try {
    for await (const event of events) {
      if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'tool-call-delta') meter.markFirstToken();
      else if (event.type === 'usage') meter.usage = event.usage;
      else if (event.type === 'error') {
        meter.streamError = callerError(event.error);
        yield { type: 'error', error: meter.streamError };
        continue;
      }
      else if (event.type === 'perf') {
        meter.backendPerf = event.perf;
        continue; // re-emitted, complete, by attachPerfMetrics
      }
      yield event;
    }
  } catch (error) {
    // Aborted by the pipeline with the answer it wants (the proxy shutting down), that answer.
    yield { type: 'error', error: signal?.reason instanceof ProxyError ? signal.reason : toProxyError(error) };
  }
  meter.end();
}

/**
 * `perf_metrics_in_response` on a stream: Fireworks puts the metrics on the
 * chunk that carries `finish_reason`. Usage usually follows that chunk, so
 * choice ends are held until the stream ends (microseconds), then sent after
 * one `perf` event with the final figures.
 */
export async function* attachPerfMetrics(events: AsyncIterable<StreamEvent>, meter: RequestMeter): AsyncGenerator<StreamEvent> {
  const held: StreamEvent[] = [];
  let usage: StreamEvent | undefined;
  for await (const event of events) {
    if (event.type === 'choice-end') held.push(event);
    else if (event.type === 'usage') usage = event;
    else if (event.type === 'error') {
      yield* held;
      yield event;
      return;
    } else yield event;
  }
  meter.end();
  yield { type: 'perf', perf: meter.perfMetrics() };
  yield* held;
  if (usage) yield usage;
}
