/**
 * The in-memory response store: for one instance (see response-store.ts).
 * Bounded per API key and in all: a key keeps at most `maxResponsesPerKey`
 * entries and `maxBytesPerKey` bytes (past either, its own oldest go first,
 * never another key's); every key together at most `maxResponses` entries and
 * `maxBytes` bytes (past either, the oldest entry of the key holding the most
 * of it goes first, so a key never loses a response to a key holding less).
 * None is older than `maxAgeSeconds` (expired entries are dropped when met,
 * and swept as new ones arrive). One entry over `maxResponseBytes` is refused.
 * Each entry is held as its JSON text, measured once when it is put: the count
 * is the memory it takes, and every read parses a fresh copy that the caller
 * may change freely.
 */
import { itemIds, itemsOf, ResponseTooLarge, type ResponseStore, type StoredResponse } from './response-store.js';

export interface MemoryStoreSettings {
  maxResponses: number;
  maxAgeSeconds: number;
  /** Bytes kept in all. */
  maxBytes: number;
  /** Bytes one entry may take; a larger one is refused. */
  maxResponseBytes: number;
  /** Entries one owner keeps; absent: only `maxResponses` bounds it. */
  maxResponsesPerKey?: number;
  /** Bytes one owner keeps; absent: only `maxBytes` bounds it. */
  maxBytesPerKey?: number;
}

interface Entry {
  json: string;
  bytes: number;
  owner: string;
  expiresAt: number;
  /** The keys (itemKey) of the items it holds. */
  itemKeys: string[];
  status: unknown;
  /** When it was first put, in put order: the older of two owners' oldest entries is the smaller. */
  order: number;
}

/** One owner's entries, oldest first, and the bytes they take. */
interface Holding {
  ids: Set<string>;
  bytes: number;
}

export class MemoryResponseStore implements ResponseStore {
  readonly kind = 'memory';
  /** Insertion order is age order: a Map iterates oldest first. */
  private readonly entries = new Map<string, Entry>();
  /** Owner and item id (itemKey) -> the response that holds the item (in its output or its input). */
  private readonly items = new Map<string, string>();
  /** Owner -> what it holds. */
  private readonly owners = new Map<string, Holding>();
  private totalBytes = 0;
  private puts = 0;

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
      this.holding(stored.owner).bytes += bytes - existing.bytes;
      Object.assign(existing, { json, bytes, itemKeys, status });
    } else {
      this.entries.set(id, {
        json,
        bytes,
        owner: stored.owner,
        expiresAt: this.now() + this.settings.maxAgeSeconds * 1000,
        itemKeys,
        status,
        order: this.puts++,
      });
      this.totalBytes += bytes;
      const holding = this.holding(stored.owner);
      holding.ids.add(id);
      holding.bytes += bytes;
    }
    for (const key of itemKeys) this.items.set(key, id);
    this.sweep(stored.owner);
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
    const holding = this.owners.get(entry.owner);
    if (!holding) return;
    holding.ids.delete(id);
    holding.bytes -= entry.bytes;
    if (holding.ids.size === 0) this.owners.delete(entry.owner);
  }

  private holding(owner: string): Holding {
    let holding = this.owners.get(owner);
    if (!holding) this.owners.set(owner, (holding = { ids: new Set(), bytes: 0 }));
    return holding;
  }

  /** Drops the owner's oldest entry; false when it holds none. */
  private dropOldestOf(owner: string | undefined): boolean {
    const id = owner === undefined ? undefined : this.owners.get(owner)?.ids.values().next().value;
    const entry = id === undefined ? undefined : this.entries.get(id);
    if (id === undefined || !entry) return false;
    this.drop(id, entry);
    return true;
  }

  /**
   * The owner holding the most by `measure`; of two holding as much, the one whose oldest entry is older.
   * A walk over the owners (one per API key), only when the store is full.
   */
  private largest(measure: (holding: Holding) => number): string | undefined {
    let found: { owner: string; size: number; oldest: number } | undefined;
    for (const [owner, holding] of this.owners) {
      const size = measure(holding);
      const oldest = this.entries.get(holding.ids.values().next().value as string)?.order ?? Infinity;
      if (!found || size > found.size || (size === found.size && oldest < found.oldest)) found = { owner, size, oldest };
    }
    return found?.owner;
  }

  private forgetItems(id: string, entry: Entry): void {
    for (const key of entry.itemKeys) if (this.items.get(key) === id) this.items.delete(key);
  }

  /**
   * Drops expired entries from the old end; then `owner`'s oldest while it is over its own bounds;
   * then, while the store is over a bound in all, the oldest of the owner holding the most of it.
   */
  private sweep(owner: string): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.drop(id, entry);
    }
    const { maxResponses, maxBytes, maxResponsesPerKey = Infinity, maxBytesPerKey = Infinity } = this.settings;
    const own = this.owners.get(owner);
    while (own && (own.ids.size > maxResponsesPerKey || own.bytes > maxBytesPerKey) && this.dropOldestOf(owner));
    while (this.entries.size > maxResponses && this.dropOldestOf(this.largest((holding) => holding.ids.size)));
    while (this.totalBytes > maxBytes && this.dropOldestOf(this.largest((holding) => holding.bytes)));
  }
}

/** Items are found per owner: an id one caller chose never points another's reference at its response. */
const itemKey = (owner: string, itemId: string) => `${owner}\n${itemId}`;
