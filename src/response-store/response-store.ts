/**
 * Where the Responses API's state lives when the proxy keeps any: each stored
 * Response with the input it answered (the earlier turns included), so a later
 * request can continue it with `previous_response_id` and a client can fetch
 * it with `GET /v1/responses/{id}`. The proxy is stateless by default; a store
 * is configured under `responses.store`.
 *
 * The interface is asynchronous and holds plain JSON, so a store shared by
 * several replicas (Redis, a database) is one more implementation of it. The
 * in-memory store (memory-store.ts) fits a single instance only: another
 * replica does not see what it keeps, and a restart forgets it.
 */
export interface StoredResponse {
  /** The Response object as the caller received it (or, for a background request, as it stands). */
  response: Record<string, unknown> & { id: string };
  /** Every input item the response answered: the earlier turns' items first, then its own request's. */
  input: unknown[];
}

export interface ResponseStore {
  /** A short name for logs and errors (`memory`). */
  readonly kind: string;
  get(id: string): Promise<StoredResponse | undefined>;
  /** Stores or replaces the entry under `entry.response.id`. */
  put(entry: StoredResponse): Promise<void>;
  /** An item of a stored response (its output or its input), by the item's id: what an `item_reference` names. */
  findItem(itemId: string): Promise<unknown>;
  /** True when there was such an entry. */
  delete(id: string): Promise<boolean>;
  close?(): Promise<void>;
}
