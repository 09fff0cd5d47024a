/**
 * Where the Responses API's state lives when the proxy keeps any: each stored
 * Response with its own request's input and the id of the response it
 * continued, so a later request can continue it with `previous_response_id`
 * (the conversation is the chain of responses, walked back: no entry copies
 * the ones before it) and a client can fetch it with `GET /v1/responses/{id}`.
 * The proxy is stateless by default; a store is configured under
 * `responses.store`.
 *
 * Every entry belongs to an owner (the digest of the API key that made it,
 * src/pipeline/request/check-api-key.ts): the store answers each owner for its own
 * entries only, and another owner's id reads exactly as one that does not
 * exist.
 *
 * The interface is asynchronous and holds plain JSON, so a store shared by
 * several replicas is one more implementation of it: redis-store.ts, which
 * also lets every replica see and cancel the background runs of the others
 * (`runs`). The in-memory store (memory-store.ts) fits a single instance only:
 * another replica does not see what it keeps, and a restart forgets it.
 *
 * A response once `cancelled` stays so: a run that ends after its cancel does
 * not replace it.
 */
export interface StoredResponse {
  /** The Response object as the caller received it (or, for a background request, as it stands). */
  response: Record<string, unknown> & { id: string };
  /** The input items of this response's own request (item_references resolved); the earlier turns are its previous response's. */
  input: unknown[];
  /** The response this one continued (`previous_response_id`): its turns come before this one's. */
  previousResponseId?: string;
  /** Who made it: only this owner may read, list, continue, reference, delete or cancel it. */
  owner: string;
}

export interface ResponseStore {
  /** A short name for logs and errors (`memory`). */
  readonly kind: string;
  /** The entry, when it exists and belongs to `owner`. */
  get(id: string, owner: string): Promise<StoredResponse | undefined>;
  /**
   * Stores or replaces the entry under `entry.response.id`; false when it kept nothing: the entry there
   * is `cancelled`, or, with `onlyReplacing`, missing or of a status not listed (a write that must not
   * undo a run's end). Throws (and keeps nothing) when the entry is larger than the store takes
   * (`ResponseTooLarge`) or the id is another owner's.
   */
  put(entry: StoredResponse, onlyReplacing?: readonly string[]): Promise<boolean>;
  /** An item of one of `owner`'s stored responses (its output or its input), by the item's id: what an `item_reference` names. */
  findItem(itemId: string, owner: string): Promise<unknown>;
  /** True when there was such an entry of `owner`'s. */
  delete(id: string, owner: string): Promise<boolean>;
  /** What the store holds now, for `/metrics`; a shared store may not know. */
  usage?(): { responses: number; bytes: number };
  /**
   * A store over the network: resolves once it answers (waiting at most its command timeout), else throws
   * the 503 `store_unavailable`. Asked before work whose answer must be kept, so it fails before the upstream runs.
   */
  checkAvailable?(): Promise<void>;
  /** A store over the network: whether it is connected now (`/healthz` says `degraded` when not). */
  health?(): 'ok' | 'degraded';
  /** Background runs other replicas see and cancel (a shared store); without it a run is known to its own process only. */
  readonly runs?: SharedRuns;
  close?(): Promise<void>;
}

/**
 * The background runs of every replica sharing a store. A running replica holds a lease on its run,
 * renewed while it runs: a run whose lease has lapsed belongs to a replica that died.
 */
export interface SharedRuns {
  /** This process runs `id`: holds its lease, and calls `cancel` when any replica asks to cancel it. */
  hold(id: string, owner: string, cancel: () => void): Promise<void>;
  /** The run is over here (its lease goes; failing that, it lapses). */
  release(id: string, owner: string): void;
  /** Asks the replica running `id` to cancel it (its abort reaches the upstream request). */
  requestCancel(id: string, owner: string): Promise<void>;
  /** Whether some replica still holds the run's lease. */
  isRunning(id: string, owner: string): Promise<boolean>;
}

/** The store's operations as `/metrics` counts them: each one's time, and why it failed. */
export interface StoreObserver {
  storeOperation(operation: string, seconds: number, failure?: 'timeout' | 'unavailable'): void;
}

/** A put refused for its size (`responses.store.maxResponseBytes`): the answer goes out unkept. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the response takes ${bytes} bytes; at most ${limit} are kept for one response (responses.store.maxResponseBytes)`);
    this.name = 'ResponseTooLarge';
  }
}

/** The size a store counts for a value: the UTF-8 bytes of its JSON (never less than V8 holds for that string). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

type Item = Record<string, unknown> & { id?: unknown };

/** The items a stored response holds (its output, then its own input): what an `item_reference` may name. */
export function itemsOf(stored: StoredResponse): Item[] {
  const output = Array.isArray(stored.response.output) ? stored.response.output : [];
  return [...output, ...stored.input].filter((item): item is Item => typeof item === 'object' && item !== null);
}

export function itemIds(stored: StoredResponse): string[] {
  return itemsOf(stored)
    .map((item) => item.id)
    .filter((id): id is string => typeof id === 'string');
}
