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
 * several replicas (Redis, a database) is one more implementation of it. The
 * in-memory store (memory-store.ts) fits a single instance only: another
 * replica does not see what it keeps, and a restart forgets it.
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
   * Stores or replaces the entry under `entry.response.id`. Throws (and keeps nothing) when the entry
   * is larger than the store takes (`ResponseTooLarge`) or the id is another owner's.
   */
  put(entry: StoredResponse): Promise<void>;
  /** An item of one of `owner`'s stored responses (its output or its input), by the item's id: what an `item_reference` names. */
  findItem(itemId: string, owner: string): Promise<unknown>;
  /** True when there was such an entry of `owner`'s. */
  delete(id: string, owner: string): Promise<boolean>;
  /** What the store holds now, for `/metrics`; a shared store may not know. */
  usage?(): { responses: number; bytes: number };
  close?(): Promise<void>;
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
