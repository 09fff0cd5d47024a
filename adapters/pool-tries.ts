/**
 * One request's tries over a pool of replicas (`urls`): which replica each try
 * goes to (the pool's plan), what each met (reported to the pool for passive
 * health), and, when the last try fails as a replica fails, the error that
 * names every replica tried and what it met, so an operator sees the whole
 * pool at once rather than the last replica's words.
 */
import { replicasFailed } from '../src/errors/catalogue.js';
import { ProxyError } from '../src/errors/proxy-error.js';
import type { ReplicaState } from '../src/backend/adapter.js';
import { isReplicaFailure, type Replica, type ReplicaPlan, type ReplicaPool } from './replica-pool.js';
import type { FailedTry } from './retry-policy.js';
import type { UpstreamResponse } from './transport/http-client.js';

interface Tried {
  /** Its state when the request first went to it. */
  state: ReplicaState;
  /** What its last try met: an HTTP status, or a failure below HTTP. */
  outcome?: UpstreamResponse | FailedTry;
}

export class PoolTries {
  /** The URL of the current try. */
  url = '';
  private lease?: ReturnType<ReplicaPlan['next']>;
  private readonly byUrl = new Map<string, Replica>();
  private readonly tried = new Map<Replica, Tried>();
  private last?: UpstreamResponse | FailedTry;

  constructor(
    private readonly pool: ReplicaPool,
    private readonly plan: ReplicaPlan,
    /** Where each try posts, from its replica's base URL (`(base) => base + '/chat/completions'`). */
    private readonly urlOf: (base: string) => string,
  ) {}

  /** The URL of the next try (the HTTP client's `url` callback); the try before is over. */
  readonly pick = (): string => {
    this.lease?.release();
    this.lease = this.plan.next();
    const { replica } = this.lease;
    this.url = this.urlOf(replica.base);
    this.byUrl.set(this.url, replica);
    if (!this.tried.has(replica)) this.tried.set(replica, { state: this.pool.state(replica) });
    return this.url;
  };

  /** Told after each try (the HTTP client's `onTry`): for passive health, and for the error that names them all. */
  readonly onTry = (url: string, outcome: UpstreamResponse | FailedTry): void => {
    const replica = this.byUrl.get(url);
    if (!replica) return;
    this.pool.report(replica, outcome);
    const tried = this.tried.get(replica);
    if (tried) tried.outcome = outcome;
    this.last = outcome;
  };

  /** The current replica's count of requests outstanding ends (once its answer is read, or it failed). */
  release(): void {
    this.lease?.release();
  }

  /**
   * What to throw for the HTTP client's failure: when it is the last try's and that try failed as a
   * replica fails (no answer, or a 5xx), the pool's error naming each replica; anything else (a 4xx,
   * the caller leaving) as it is.
   */
  failure(error: unknown, backend: string): unknown {
    const last = this.last;
    if (!(error instanceof ProxyError) || !last || !('error' in last) || last.error !== error || !isReplicaFailure(last)) return error;
    const tried = [...this.tried].map(([replica, { state, outcome }]) => ({
      replica: replica.label,
      met: outcome === undefined ? 'no answer' : 'error' in outcome ? whatFailed(outcome) : `HTTP ${outcome.status}`,
      ...(state === 'healthy' ? {} : { state }),
    }));
    const untried = this.pool.replicas
      .filter((replica) => !this.tried.has(replica))
      .map((replica) => ({ replica: replica.label, state: this.pool.state(replica) }));
    return replicasFailed({ backend, tried, untried, last: error });
  }
}

/** A failed try in a few words: its HTTP status, or what broke below HTTP ("connection refused"). */
function whatFailed(failed: FailedTry): string {
  if (failed.status !== undefined) return `HTTP ${failed.status}`;
  // Transport messages end with the cause in words: "Could not reach the upstream backend h:1: connection refused."
  const words = /: ([^:]+?)\.?$/.exec(failed.error.message)?.[1];
  if (words) return words;
  return failed.error.code === 'upstream_timeout' ? 'timed out' : (failed.error.code ?? 'failed');
}
