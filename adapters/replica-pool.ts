/**
 * The replicas of one model server behind a remote backend (`urls`), and which
 * one serves a request:
 *
 * - with an affinity key (a session), the key's rendezvous choice among the
 *   replicas in service (rendezvous-hash.ts): every proxy with the same `urls`
 *   picks the same replica, so a session keeps its KV cache warm;
 * - without one, the replica in service with the fewest requests outstanding
 *   (ties taken in turn).
 *
 * A replica leaves service when it keeps failing (passive health: `failures`
 * consecutive connection errors, timeouts before the headers or 5xx eject it
 * for `baseMs`, doubled at each ejection while it keeps failing, up to `maxMs`;
 * a success resets both), or when its health probe fails (active health,
 * replica-health.ts). A retry goes to the key's next choice (or the next least
 * loaded replica), never to one already tried while another is left. When no
 * replica is in service, requests go to them all the same: a pool that might
 * work beats a certain error.
 */
import type { ReplicaStat, ReplicaState } from '../src/backend/adapter.js';
import { rankReplicas } from './rendezvous-hash.js';
import type { FailedTry } from './retry-policy.js';

export interface EjectionSettings {
  /** Consecutive failed requests (connection errors, timeouts before the headers, 5xx) that eject a replica; 0: never. */
  failures: number;
  /** The first ejection; each next one, while the replica keeps failing, doubles. */
  baseMs: number;
  /** The longest ejection. */
  maxMs: number;
}

export const EJECTION_DEFAULTS: EjectionSettings = { failures: 3, baseMs: 5_000, maxMs: 300_000 };

export class Replica {
  /** The base URL as configured, without a trailing slash: requests go to `base + '/chat/completions'`. */
  readonly base: string;
  /** The metrics' label: the URL without any user:password part. */
  readonly label: string;
  outstanding = 0;
  ejections = 0;
  /** Consecutive failed requests; a success resets it. */
  failures = 0;
  /** Ejections in a row without a success in between: the next one lasts baseMs x 2^level. */
  level = 0;
  ejectedUntil = 0;
  /** Marked down by the active health probe, until a probe succeeds. */
  down = false;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, '');
    const parsed = new URL(this.base);
    this.label = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  }
}

/** One request's way through the pool: each `next()` is the replica for the next try. */
export interface ReplicaPlan {
  /** The replica for the next try, with one request counted outstanding on it until `release`. */
  next(): { replica: Replica; release(): void };
}

export interface ReplicaPoolOptions {
  ejection?: Partial<EjectionSettings>;
  /** The clock (tests). */
  now?: () => number;
}

export class ReplicaPool {
  readonly replicas: readonly Replica[];
  private readonly ejection: EjectionSettings;
  private readonly now: () => number;
  private readonly byBase = new Map<string, Replica>();
  private turn = 0;

  constructor(urls: readonly string[], options: ReplicaPoolOptions = {}) {
    if (urls.length === 0) throw new Error('A replica pool needs at least one URL.');
    this.replicas = urls.map((url) => new Replica(url));
    for (const replica of this.replicas) this.byBase.set(replica.base, replica);
    this.ejection = { ...EJECTION_DEFAULTS, ...options.ejection };
    this.now = options.now ?? Date.now;
  }

  /** In service: not ejected (or its ejection is over) and not marked down by a probe. */
  inService(replica: Replica): boolean {
    return !replica.down && replica.ejectedUntil <= this.now();
  }

  state(replica: Replica): ReplicaState {
    if (replica.down) return 'down';
    return replica.ejectedUntil > this.now() ? 'ejected' : 'healthy';
  }

  /**
   * The order a request tries the replicas in, decided try by try (health may change between two):
   * the first not yet tried among those in service, by the key's rendezvous rank, or fewest outstanding.
   */
  plan(key?: string): ReplicaPlan {
    const ranked =
      key === undefined
        ? undefined
        : rankReplicas(
            key,
            this.replicas.map(({ base }) => base),
          ).map((base) => this.byBase.get(base) as Replica);
    const tried = new Set<Replica>();
    return {
      next: () => {
        if (tried.size === this.replicas.length) tried.clear(); // every one tried: start over (the retry waits its back-off)
        const fresh = this.replicas.filter((replica) => !tried.has(replica));
        const serving = fresh.filter((replica) => this.inService(replica));
        const candidates = serving.length > 0 ? serving : fresh;
        const replica = ranked
          ? (ranked.find((candidate) => candidates.includes(candidate)) as Replica)
          : this.leastOutstanding(candidates);
        tried.add(replica);
        replica.outstanding += 1;
        let released = false;
        return {
          replica,
          release: () => {
            if (released) return;
            released = true;
            replica.outstanding -= 1;
          },
        };
      },
    };
  }

  /** A request's answer (any status below 500 but 429: the replica works) or its failure, for passive health. */
  report(replica: Replica, outcome: { status: number } | FailedTry): void {
    if (isReplicaFailure(outcome)) this.failed(replica);
    else if (outcome.status !== 429) this.succeeded(replica);
  }

  succeeded(replica: Replica): void {
    replica.failures = 0;
    replica.level = 0;
    replica.ejectedUntil = 0;
  }

  failed(replica: Replica): void {
    replica.failures += 1;
    const { failures, baseMs, maxMs } = this.ejection;
    const now = this.now();
    // Requests that were already on their way when it was ejected do not eject it again.
    if (failures === 0 || replica.failures < failures || replica.ejectedUntil > now) return;
    replica.ejectedUntil = now + Math.min(maxMs, baseMs * 2 ** replica.level);
    replica.level += 1;
    replica.ejections += 1;
  }

  /** A probe answered: the replica is in service again, its ejection (if any) ended. */
  probeSucceeded(replica: Replica): void {
    replica.down = false;
    replica.ejectedUntil = 0;
  }

  probeFailed(replica: Replica): void {
    replica.down = true;
  }

  stats(): ReplicaStat[] {
    return this.replicas.map((replica) => ({
      replica: replica.label,
      state: this.state(replica),
      outstanding: replica.outstanding,
      ejections: replica.ejections,
    }));
  }

  private leastOutstanding(candidates: readonly Replica[]): Replica {
    const fewest = Math.min(...candidates.map(({ outstanding }) => outstanding));
    const ties = candidates.filter(({ outstanding }) => outstanding === fewest);
    // Ties are taken in turn, so that an idle pool is spread too.
    return ties[this.turn++ % ties.length];
  }
}

/**
 * What counts against a replica: no answer (the connection failed, or no headers in time) or a 5xx.
 * Not a 429 (busy, not broken), not a 4xx (the request's fault), not the caller leaving.
 */
export function isReplicaFailure(outcome: { status: number } | FailedTry): boolean {
  if ('error' in outcome && outcome.status === undefined) {
    return outcome.error.code === 'upstream_unreachable' || outcome.error.code === 'upstream_timeout';
  }
  return (outcome.status ?? 0) >= 500;
}
