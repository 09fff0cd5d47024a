/** A streamed answer: opened on the first backend that starts it (open-stream.ts), then written event by event in the caller's dialect. */
import type { ServerResponse } from 'node:http';
import type { RequestState } from '../../dialects/dialect-state.js';
import { sseHeaders } from '../../streaming/encode-sse.js';
import { sseKeepAliveComment } from '../../streaming/keep-alive.js';
import { setAnswerHeaders } from './answer-headers.js';
import { CallerStream, writeCallerStream } from './caller-stream.js';
import { openStream } from './open-stream.js';
import { startOnRoute, type RoutedCall } from './start-on-route.js';

export async function answerStream(call: RoutedCall, res: ServerResponse, state?: RequestState): Promise<void> {
  const { dialect, record, signal } = call;
  const { sseKeepAliveMs } = call.runtime.config.server;
  record.streaming();
  const { backend, plan, started } = await startOnRoute(call, (plan, context) => openStream(plan, context, sseKeepAliveMs));
  setAnswerHeaders(res, backend.name, record.tried, plan.warnings);
  res.writeHead(200, dialect.sse.headers ?? sseHeaders);
  // No flushHeaders: unless a keep-alive is due, the first event is already here and the headers leave with it.
  if (started.keepAliveFirst) res.write(dialect.sse.keepAlive ?? sseKeepAliveComment);
  const stream = new CallerStream(dialect.streamSerializer(plan.request, call.runtime.dialectContext), {
    meter: record.meter,
    perfMetricsInBody: plan.request.perfMetricsInBody === true,
  });
  const beforeWrite = state?.beforeWrite;
  await writeCallerStream(res, record.watchStream(started.batches), stream, {
    framing: dialect.sse,
    keepAliveMs: sseKeepAliveMs,
    signal,
    ...(beforeWrite ? { beforeWrite } : {}),
  });
  record.streamEnded(signal.aborted);
}
