/**
 * The process's fan-out slots (`limits.fanOutPerProcess`), of which one API
 * key holds at most `limits.fanOutPerKey` at once: a key's sub-requests first
 * wait for a slot of its own share, and only then for one of the process's, so
 * a key at its share holds no more process slots and never queues ahead of
 * another key's. With one owner (fewer than two keys) the shares are left out:
 * that owner's bound is the process's.
 *
 * @example
 * const slots = new FanOutSlots({ perProcess: 64, perKey: 32 });
 * const release = await slots.acquire(signal, owner);
 */
import { Slots } from './slots.js';

export class FanOutSlots {
  private readonly process: Slots;
  /** Each owner's share while it holds or waits for one; dropped once idle, so owners cost nothing once gone. */
  private readonly shares = new Map<string, Slots>();

  /** `perKey`: absent, no share (one owner). */
  constructor(private readonly sizes: { perProcess: number; perKey?: number }) {
    this.process = new Slots(sizes.perProcess);
  }

  /** Slots held now in the process, every owner together. */
  get inUse(): number {
    return this.process.inUse;
  }

  /** A slot of `owner`'s share, then one of the process's; resolves with the release of both (safe to call twice). */
  async acquire(signal: AbortSignal, owner = ''): Promise<() => void> {
    if (this.sizes.perKey === undefined) return this.process.acquire(signal);
    const share = this.shareOf(owner);
    let releaseShare: () => void;
    try {
      releaseShare = await share.acquire(signal);
    } catch (error) {
      this.forgetIfIdle(owner, share);
      throw error;
    }
    const releaseMine = () => {
      releaseShare();
      this.forgetIfIdle(owner, share);
    };
    try {
      const releaseProcess = await this.process.acquire(signal);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        releaseProcess();
        releaseMine();
      };
    } catch (error) {
      releaseMine();
      throw error;
    }
  }

  private shareOf(owner: string): Slots {
    let share = this.shares.get(owner);
    if (!share) this.shares.set(owner, (share = new Slots(this.sizes.perKey ?? this.sizes.perProcess)));
    return share;
  }

  private forgetIfIdle(owner: string, share: Slots): void {
    if (share.idle && this.shares.get(owner) === share) this.shares.delete(owner);
  }
}
