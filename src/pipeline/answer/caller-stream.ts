/**
 * A stream's events -> the caller's SSE, one synchronous step per event:
 * watch it (time to first token, usage, the error that ends it), hold choice
 * ends for `perf_metrics`, serialize in the caller's dialect, frame. One
 * async loop, at the socket, one turn per batch (an upstream packet): an async
 * generator per stage, or a turn per event, cost promise turns and garbage on
 * every event of every stream.
 */
import type { ServerResponse } from 'node:http';
import { pushEvent, type AnyStreamSerializer } from '../../dialects/stream-serializer.js';
import { failureOf, ProxyError } from '../../errors/proxy-error.js';
import type { StreamBatches, StreamEvent } from '../../model/stream-event.js';
import type { SseFraming } from '../../streaming/encode-sse.js';
import { SseWriter } from '../../streaming/write-sse.js';
import type { RequestMeter } from './request-meter.js';

type Chunk = Record<string, unknown>;

export interface CallerStreamOptions {
  meter: RequestMeter;
  /** `perf_metrics_in_response`: Fireworks puts the metrics on the chunk that carries the last `finish_reason`. */
  perfMetricsInBody: boolean;
}

export class CallerStream {
  /** Choice ends (and usage) held for perf_metrics: usage usually follows them, and the metrics need it. */
  private readonly held: StreamEvent[] = [];
  private usage?: StreamEvent;

  constructor(
    private readonly serializer: AnyStreamSerializer,
    private readonly options: CallerStreamOptions,
  ) {}

  /** True once an error chunk has ended the stream. */
  get ended(): boolean {
    return this.serializer.ended;
  }

  /** One engine event: appends the chunks it makes. */
  push(event: StreamEvent, out: Chunk[]): void {
    const { meter, perfMetricsInBody } = this.options;
    switch (event.type) {
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
        meter.markFirstToken();
        break;
      case 'usage':
        meter.usage = event.usage;
        if (perfMetricsInBody) {
          this.usage = event;
          return;
        }
        break;
      case 'perf':
        meter.backendPerf = event.perf; // sent, complete, at the end
        return;
      case 'choice-end':
        if (perfMetricsInBody) {
          this.held.push(event);
          return;
        }
        break;
      case 'error':
        meter.streamError = event.error;
        this.fail(event.error, out);
        return;
    }
    pushEvent(this.serializer, event, out);
  }

  /** A failure that ended the events: its error chunk (after what was held). */
  fail(error: ProxyError, out: Chunk[]): void {
    for (const event of this.held.splice(0)) this.serializer.push(event, out);
    this.serializer.push({ type: 'error', error }, out);
  }

  /** The events are over: the perf metrics, what was held, and the dialect's closing chunks. */
  finish(out: Chunk[]): void {
    const { meter, perfMetricsInBody } = this.options;
    meter.end();
    if (perfMetricsInBody) {
      this.serializer.push({ type: 'perf', perf: meter.perfMetrics() }, out);
      for (const event of this.held.splice(0)) this.serializer.push(event, out);
      if (this.usage) this.serializer.push(this.usage, out);
    }
    this.serializer.finish(out);
  }
}

export interface WriteStreamOptions {
  framing: SseFraming;
  /** An SSE comment after this long without a write; off when unset. */
  keepAliveMs?: number;
  /** Called before a chunk is written (a Responses stream kept in the store waits here for its last event to be kept). */
  beforeWrite?(chunk: Chunk): Promise<void> | undefined;
  /** The abort reason stands for a failure thrown while reading (the proxy shutting down), when it is the proxy's own. */
  signal?: AbortSignal;
}

/**
 * Writes `batches` through `stream` to the client, then the closing frames.
 * Returns when the stream ends or the client goes away; leaving the loop
 * returns the batches' iterator, which cancels the upstream work.
 */
export async function writeCallerStream(
  response: ServerResponse,
  batches: StreamBatches,
  stream: CallerStream,
  options: WriteStreamOptions,
): Promise<void> {
  const writer = new SseWriter(response, options.keepAliveMs, options.framing.keepAlive);
  const { frame, end } = options.framing;
  const out: Chunk[] = [];
  const { beforeWrite } = options;
  // Synchronous unless a chunk must wait (a stored Responses stream): a promise per packet is garbage on every stream.
  const write = (): Promise<void> | undefined => {
    if (beforeWrite) return writeAfterEach(beforeWrite);
    for (const chunk of out) writer.write(frame(chunk));
    out.length = 0;
    return undefined;
  };
  const writeAfterEach = async (before: NonNullable<WriteStreamOptions['beforeWrite']>) => {
    for (const chunk of out) {
      const wait = before(chunk);
      if (wait) await wait;
      writer.write(frame(chunk));
    }
    out.length = 0;
  };
  try {
    try {
      for await (const batch of batches) {
        if (writer.closed) return;
        for (const event of batch) {
          stream.push(event, out);
          if (stream.ended) break;
        }
        const written = write();
        if (written) await written;
        if (stream.ended) break;
        const wait = writer.drained();
        if (wait) await wait;
      }
      if (!stream.ended) stream.finish(out);
    } catch (thrown) {
      stream.fail(failureOf(thrown, options.signal), out);
    }
    const written = write();
    if (written) await written;
    writer.end(end);
  } finally {
    writer.stop();
  }
}
