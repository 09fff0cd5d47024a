/**
 * A route's backends in order: the first serves; when it fails before anything
 * has reached the caller, the next takes over. Each plans the caller's request
 * as parsed for its own kind (a field the fallback cannot take is its own 400
 * or warning, never sent blindly).
 */
import type { ProxyLimits } from '../../config/settings.js';
import { ProxyError, toProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import { planRequest, type Plan } from './plan.js';
import { upstreamModelFor, type Backend, type RouteMatch } from './route-table.js';

export interface Attempt<T> {
  backend: Backend;
  plan: Plan;
  started: T;
}

export interface FallBackOptions<T> {
  request: NeutralRequest;
  match: RouteMatch;
  /** Starts the planned request on one backend; throws (or rejects) when it fails before the first byte. */
  start(plan: Plan, backend: Backend): Promise<T>;
  /** The caller left or the proxy is ending: no backend is tried after that. */
  signal: AbortSignal;
  /** Told as each backend is tried (before its plan, which may refuse the request). */
  onTry?(backend: Backend): void;
  /** Told before each fallback, with the failure that caused it. */
  onFallBack?(from: Backend, to: Backend, failure: ProxyError): void;
  /** The config's budgets for each plan (PlanOptions.limits). */
  limits?: Pick<ProxyLimits, 'grammarBytes' | 'grammarMs'>;
}

/** Backend failures another backend may not share: upstream errors and timeouts, 429, 5xx. Never the caller's own 4xx. */
export function canFallBack(failure: ProxyError): boolean {
  return failure.status === 429 || (failure.status >= 500 && failure.status !== 501);
}

/** The first backend that starts; throws the failure that ended the search (tagged with its backend): a refusal by the plan, or the last backend's failure. */
export async function startWithFallbacks<T>({
  request,
  match,
  start,
  signal,
  onTry,
  onFallBack,
  limits,
}: FallBackOptions<T>): Promise<Attempt<T>> {
  const candidates = [match.backend, ...(match.fallbacks ?? [])];
  for (let i = 0; ; i++) {
    const backend = candidates[i];
    onTry?.(backend);
    try {
      const upstreamModel = i === 0 ? match.upstreamModel : upstreamModelFor(match.route, backend.name, request.model);
      const plan = planRequest(request, { ...match, backend, upstreamModel }, limits ? { limits } : {});
      return { backend, plan, started: await start(plan, backend) };
    } catch (thrown) {
      const failure = toProxyError(thrown);
      const next = candidates[i + 1];
      if (next === undefined || signal.aborted || !canFallBack(failure)) throw new BackendFailure(backend, failure);
      onFallBack?.(backend, next, failure);
    }
  }
}

/** A failure with the backend that answered it, for the `x-dialect-backend` header and the log. */
export class BackendFailure extends Error {
  constructor(
    readonly backend: Backend,
    readonly failure: ProxyError,
  ) {
    super(failure.message, { cause: failure });
    this.name = 'BackendFailure';
  }
}
