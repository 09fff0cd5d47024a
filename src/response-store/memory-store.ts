/**
 * The in-memory response store: for one instance (see response-store.ts).
 * Bounded three ways: at most `maxResponses` entries and `maxBytes` bytes in
 * all (the oldest go first), and none older than `maxAgeSeconds` (expired
 * entries are dropped when met, and swept as new ones arrive). One entry over
 * `maxResponseBytes` is refused. Each entry is held as its JSON text, measured
 * once when it is put: the count is the memory it takes, and every read parses
 * a fresh copy that the caller may change freely.
 */
import { itemIds, itemsOf, ResponseTooLarge, type ResponseStore, type StoredResponse } from './response-store.js';

export interface MemoryStoreSettings {
  maxResponses: number;
  maxAgeSeconds: number;
  /** Bytes kept in all; the oldest entries go first. */
  maxBytes: number;
  /** Bytes one entry may take; a larger one is refused. */
  maxResponseBytes: number;
}

interface Entry {
  json: string;
  bytes: number;
  owner: string;
  expiresAt: number;
  /** The keys (itemKey) of the items it holds. */
  itemKeys: string[];
  status: unknown;
}

export class MemoryResponseStore implements ResponseStore {
  readonly kind = 'memory';
  /** Insertion order is age order: a Map iterates oldest first. */
  private readonly entries = new Map<string, Entry>();
  /** Owner and item id (itemKey) -> the response that holds the item (in its output or its input). */
  private readonly items = new Map<string, string>();
  private totalBytes = 0;

  constructor(
    private readonly settings: MemoryStoreSettings,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The bytes every entry takes, together. */
  get bytes(): number {
    return this.totalBytes;
  }

  usage(): { responses: number; bytes: number } {
    return { responses: this.entries.size, bytes: this.totalBytes };
  }

  async get(id: string, owner: string): Promise<StoredResponse | undefined> {
    const entry = this.live(id);
    return entry && entry.owner === owner ? (JSON.parse(entry.json) as StoredResponse) : undefined;
  }

  async put(stored: StoredResponse, onlyReplacing?: readonly string[]): Promise<boolean> {
    const { id } = stored.response;
    const json = JSON.stringify(stored);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.settings.maxResponseBytes) throw new ResponseTooLarge(bytes, this.settings.maxResponseBytes);
    const itemKeys = itemIds(stored).map((itemId) => itemKey(stored.owner, itemId));
    const existing = this.live(id);
    const status = stored.response.status;
    if (onlyReplacing && !onlyReplacing.includes(existing?.status as string)) return false;
    if (existing) {
      // Ids are the proxy's own and random: a clash with another owner's entry is a bug, never a takeover.
      if (existing.owner !== stored.owner) throw new Error(`response ${id} belongs to another owner`);
      // A cancel is final: the run it stopped may still end, and must not undo it.
      if (existing.status === 'cancelled' && status !== 'cancelled') return false;
      // A replaced entry (a background response finishing) keeps its age and its place.
      this.forgetItems(id, existing);
      this.totalBytes += bytes - existing.bytes;
      Object.assign(existing, { json, bytes, itemKeys, status });
    } else {
      this.entries.set(id, {
        json,
        bytes,
        owner: stored.owner,
        expiresAt: this.now() + this.settings.maxAgeSeconds * 1000,
        itemKeys,
        status,
      });
      this.totalBytes += bytes;
    }
    for (const key of itemKeys) this.items.set(key, id);
    this.sweep();
    return true;
  }

  async findItem(itemId: string, owner: string): Promise<unknown> {
    const responseId = this.items.get(itemKey(owner, itemId));
    const stored = responseId === undefined ? undefined : await this.get(responseId, owner);
    return stored && itemsOf(stored).find((item) => item.id === itemId);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const entry = this.live(id);
    if (!entry || entry.owner !== owner) return false;
    this.drop(id, entry);
    return true;
  }

  /** The entry under `id` unless it has expired (then it goes now). */
  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= this.now()) {
      this.drop(id, entry);
      return undefined;
    }
    return entry;
  }

  private drop(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.totalBytes -= entry.bytes;
    this.forgetItems(id, entry);
  }

  private forgetItems(id: string, entry: Entry): void {
    for (const key of entry.itemKeys) if (this.items.get(key) === id) this.items.delete(key);
  }

  /** Drops expired entries from the old end, then the oldest while over either bound. */
  private sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.drop(id, entry);
    }
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.settings.maxResponses && this.totalBytes <= this.settings.maxBytes) break;
      this.drop(id, entry);
    }
  }
}

/** Items are found per owner: an id one caller chose never points another's reference at its response. */
const itemKey = (owner: string, itemId: string) => `${owner}\n${itemId}`;
