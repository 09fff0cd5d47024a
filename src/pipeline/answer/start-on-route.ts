/**
 * One request on its route: the first backend that starts it, falling back
 * while nothing has reached the caller (fall-back.ts), each attempt recorded
 * and given the adapter context it runs in.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { AFFINITY_HEADERS, type AdapterContext } from '../../backend/adapter.js';
import type { Dialect } from '../../dialects/dialect.js';
import type { NeutralRequest } from '../../model/request.js';
import { startWithFallbacks, type Attempt } from '../plan/fall-back.js';
import type { Plan } from '../plan/plan.js';
import type { RequestRecord } from './request-record.js';
import type { Backend, RouteMatch } from '../plan/route-table.js';
import type { ProxyRuntime } from '../runtime.js';

/** A parsed request on its way: what both answer paths (answer-json.ts, answer-stream.ts) start from. */
export interface RoutedCall {
  runtime: ProxyRuntime;
  dialect: Dialect;
  request: NeutralRequest;
  match: RouteMatch;
  record: RequestRecord;
  /** The caller left, or the proxy is ending: the upstream work stops. */
  signal: AbortSignal;
  /** The session-affinity headers the caller sent, for a pool of replicas. */
  headers: Record<string, string>;
  /** Whose request (checkApiKey): its fan-out counts against this key's share of the process's slots. */
  owner: string;
}

/** `start` runs the plan on one backend; throws a BackendFailure when none starts. */
export function startOnRoute<T>(
  call: RoutedCall,
  start: (plan: Plan, context: AdapterContext, backend: Backend) => Promise<T>,
): Promise<Attempt<T>> {
  const { runtime, request, match, record, signal, headers, owner } = call;
  const context: AdapterContext = {
    signal,
    requestId: record.requestId,
    headers,
    retrying: (failure) => record.retrying(failure),
    fanOut: runtime.fanOut,
    owner,
    trace: record.trace?.work,
  };
  return startWithFallbacks({
    request,
    match,
    signal,
    limits: runtime.config.limits,
    start: (plan, backend) => {
      record.planned(plan, backend);
      return start(plan, context, backend);
    },
    onTry: (backend) => record.trying(backend),
    onFallBack: (from, to, failure) => record.fellBack(from, to, failure),
  });
}

export function affinityHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of AFFINITY_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') found[name] = value;
  }
  return found;
}
