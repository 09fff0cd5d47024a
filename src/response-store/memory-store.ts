/**
 * The in-memory response store: for one instance (see response-store.ts).
 * Bounded twice: at most `maxResponses` entries (the oldest goes first) and
 * none older than `maxAgeSeconds` (expired entries are dropped when met, and
 * swept as new ones arrive), so it cannot grow without end.
 */
import type { ResponseStore, StoredResponse } from './response-store.js';

export interface MemoryStoreSettings {
  maxResponses: number;
  maxAgeSeconds: number;
}

interface Entry {
  stored: StoredResponse;
  expiresAt: number;
}

export class MemoryResponseStore implements ResponseStore {
  readonly kind = 'memory';
  /** Insertion order is age order: a Map iterates oldest first. */
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settings: MemoryStoreSettings, private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.entries.size;
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(id);
      return undefined;
    }
    return structuredClone(entry.stored);
  }

  async put(stored: StoredResponse): Promise<void> {
    const { id } = stored.response;
    const existing = this.entries.get(id);
    // A replaced entry (a background response finishing) keeps its age and its place.
    if (existing) existing.stored = structuredClone(stored);
    else this.entries.set(id, { stored: structuredClone(stored), expiresAt: this.now() + this.settings.maxAgeSeconds * 1000 });
    this.sweep();
  }

  async delete(id: string): Promise<boolean> {
    return this.entries.delete(id);
  }

  /** Drops expired entries from the old end, then the oldest beyond the bound. */
  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(id);
    }
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.settings.maxResponses) break;
      this.entries.delete(id);
    }
  }
}
