/** A whole answer: the result from the first backend that gives one, serialized in the caller's dialect, kept when asked, sent. */
import type { ServerResponse } from 'node:http';
import type { RequestState } from '../../dialects/dialect-state.js';
import { setAnswerHeaders } from './answer-headers.js';
import { perfHeaders } from './request-meter.js';
import { sendJson } from './send-json.js';
import { startOnRoute, type RoutedCall } from './start-on-route.js';

export async function answerJson(call: RoutedCall, res: ServerResponse, state?: RequestState): Promise<void> {
  const { backend, plan, started: result } = await startOnRoute(call, (plan, context) => plan.engine.complete(plan.request, context));
  const { meter } = call.record;
  meter.markFirstToken();
  meter.usage = result.usage;
  meter.backendPerf = result.perf;
  meter.end();
  result.perf = meter.perfMetrics();
  let answer = call.dialect.serializeResult(result, plan.request, call.runtime.dialectContext);
  if (state) answer = await state.keep(answer);
  call.record.answered(result);
  // A detached request's caller has had its answer: the state keeps this one.
  if (state?.detach) return;
  setAnswerHeaders(res, backend.name, call.record.tried, plan.warnings);
  sendJson(res, 200, answer, perfHeaders(result.perf));
}
