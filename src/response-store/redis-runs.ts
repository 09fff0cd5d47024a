/**
 * Background runs across the replicas sharing a redis store (SharedRuns in
 * response-store.ts). The replica running a response holds `run:<owner>:<id>`,
 * a key that lapses after `runLeaseSeconds` unless renewed (every third of
 * that, one pipeline for all its runs): a replica that dies stops renewing, and
 * its unfinished runs read as orphaned. A cancel is published on the `cancel`
 * channel; every replica listens, and the one holding the run aborts it. A
 * cancel missed while that replica was cut off from Redis is caught at the next
 * renewal, which also reads each run's stored status.
 */
import type { RedisResponseStoreSettings } from '../config/settings.js';
import type { RedisConnection } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import type { SharedRuns } from './response-store.js';

interface HeldRun {
  id: string;
  owner: string;
  cancel: () => void;
}

export class RedisRuns implements SharedRuns {
  /** This process's runs, by lease key. */
  private readonly held = new Map<string, HeldRun>();
  private renewal?: NodeJS.Timeout;
  private readonly leaseMs: number;

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: RedisKeys,
    settings: Pick<RedisResponseStoreSettings, 'runLeaseSeconds'>,
  ) {
    this.leaseMs = settings.runLeaseSeconds * 1000;
    // Listening from the start: a cancel may come for any run this process holds.
    this.connection.subscribe(keys.cancelChannel(), (message) => this.heard(message)).catch(() => undefined);
  }

  async hold(id: string, owner: string, cancel: () => void): Promise<void> {
    const key = this.keys.lease(owner, id);
    await this.connection.run('lease', (redis) => redis.set(key, '1', 'PX', this.leaseMs));
    this.held.set(key, { id, owner, cancel });
    this.renewal ??= setInterval(() => this.renew(), Math.max(100, Math.floor(this.leaseMs / 3))).unref();
  }

  release(id: string, owner: string): void {
    const key = this.keys.lease(owner, id);
    if (!this.held.delete(key)) return;
    if (this.held.size === 0) this.stopRenewing();
    // Failing that, the lease lapses: by then the run has kept its outcome.
    this.connection.run('lease', (redis) => redis.del(key)).catch(() => undefined);
  }

  async requestCancel(id: string, owner: string): Promise<void> {
    await this.connection.run('cancel', (redis) => redis.publish(this.keys.cancelChannel(), JSON.stringify({ id, owner })));
  }

  async isRunning(id: string, owner: string): Promise<boolean> {
    return (await this.connection.run('lease', (redis) => redis.exists(this.keys.lease(owner, id)))) === 1;
  }

  close(): void {
    this.stopRenewing();
    this.held.clear();
  }

  private heard(message: string): void {
    try {
      const { id, owner } = JSON.parse(message) as { id?: unknown; owner?: unknown };
      if (typeof id === 'string' && typeof owner === 'string') this.held.get(this.keys.lease(owner, id))?.cancel();
    } catch {
      // Not one of ours: another program publishing on the channel.
    }
  }

  private renew(): void {
    const runs = [...this.held.entries()];
    // A renewal lost to an outage is retried at the next tick; a run outliving its lease reads as orphaned elsewhere.
    this.connection
      .run('lease', (redis) => {
        const pipeline = redis.pipeline();
        for (const [key, { id, owner }] of runs) {
          // SET, not PEXPIRE: a lease that lapsed during an outage comes back while the run goes on.
          pipeline.set(key, '1', 'PX', this.leaseMs);
          pipeline.hget(this.keys.response(owner, id), 'status');
        }
        return pipeline.exec();
      })
      .then((replies) => {
        runs.forEach(([, run], i) => {
          if (replies?.[i * 2 + 1]?.[1] === 'cancelled') run.cancel();
        });
      })
      .catch(() => undefined);
  }

  private stopRenewing(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
  }
}
