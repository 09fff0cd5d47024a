/**
 * The background responses running in this process, by id: a cancel
 * (`POST /v1/responses/{id}/cancel`) aborts them, their owner's cancel only,
 * even after the store has let their entry go. Runs are counted
 * (`limits.backgroundRuns` per process, `limits.backgroundRunsPerKey` per
 * owner): each holds an upstream request open, and nobody waits on it to push
 * back.
 */
import { concurrencyLimitReached } from '../errors/catalogue.js';
import type { ProxyLimits } from '../config/settings.js';

export interface BackgroundRun {
  abort: AbortController;
  /** The owner id of the caller that started it (checkApiKey). */
  owner: string;
  model: string;
  /** Seconds since the epoch, as the Response's `created_at`. */
  createdAt: number;
}

export class BackgroundRuns {
  private readonly runs = new Map<string, BackgroundRun>();

  constructor(private readonly limits: Pick<ProxyLimits, 'backgroundRuns' | 'backgroundRunsPerKey'>) {}

  get size(): number {
    return this.runs.size;
  }

  /** Counts the run in, or a 429 naming the limit when the process, or this owner, already runs as many as it may. */
  admit(id: string, run: BackgroundRun): void {
    const { backgroundRuns: perProcess, backgroundRunsPerKey: perKey } = this.limits;
    if (this.runs.size >= perProcess)
      throw concurrencyLimitReached(
        'background',
        `${perProcess} background responses are running in this process, the most it runs at once`,
        'limits.backgroundRuns',
      );
    let mine = 0;
    for (const other of this.runs.values()) if (other.owner === run.owner) mine++;
    if (mine >= perKey)
      throw concurrencyLimitReached(
        'background',
        `This API key has ${perKey} background responses running, the most one key runs at once`,
        'limits.backgroundRunsPerKey',
      );
    this.runs.set(id, run);
  }

  /** The run, when it is `owner`'s. */
  find(id: string, owner: string): BackgroundRun | undefined {
    const run = this.runs.get(id);
    return run?.owner === owner ? run : undefined;
  }

  end(id: string): void {
    this.runs.delete(id);
  }

  /** A background run has no caller connection whose close would end it: the proxy's close ends them all. */
  abortAll(reason: unknown): void {
    for (const run of this.runs.values()) run.abort.abort(reason);
  }
}
