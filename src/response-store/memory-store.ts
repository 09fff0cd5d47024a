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
  /** Item id -> the response that holds it (in its output or its input). */
  private readonly items = new Map<string, string>();

  constructor(private readonly settings: MemoryStoreSettings, private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.entries.size;
  }

  async get(id: string): Promise<StoredResponse | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      await this.delete(id);
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
    for (const itemId of itemIds(stored)) this.items.set(itemId, id);
    this.sweep();
  }

  async findItem(itemId: string): Promise<unknown> {
    const responseId = this.items.get(itemId);
    const stored = responseId === undefined ? undefined : await this.get(responseId);
    return stored && structuredClone(itemsOf(stored).find((item) => item.id === itemId));
  }

  async delete(id: string): Promise<boolean> {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    for (const itemId of itemIds(entry.stored)) if (this.items.get(itemId) === id) this.items.delete(itemId);
    return true;
  }

  /** Drops expired entries from the old end, then the oldest beyond the bound. */
  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      void this.delete(id);
    }
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.settings.maxResponses) break;
      void this.delete(id);
    }
  }
}

type Item = Record<string, unknown> & { id?: unknown };

function itemsOf(stored: StoredResponse): Item[] {
  const output = Array.isArray(stored.response.output) ? stored.response.output : [];
  return [...output, ...stored.input].filter((item): item is Item => typeof item === 'object' && item !== null);
}

function itemIds(stored: StoredResponse): string[] {
  return itemsOf(stored).map((item) => item.id).filter((id): id is string => typeof id === 'string');
}
