/**
 * Every key and channel of the redis store, under its `keyPrefix`. The owner is in each key of an
 * owner's state: another owner's lookup misses, as for an id that does not exist. Owners are
 * fixed-length digests (or '' without API keys) holding no ':', so no two owners' keys can meet,
 * and the store's scripts read an owner back out of a response key (`responseStem`, owner, ':').
 */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  /** A hash: the stored response's JSON (`entry`) and its `status`. */
  response(owner: string, id: string): string {
    return `${this.responseStem()}${owner}:${id}`;
  }

  /** What every response key starts with, before its owner. */
  responseStem(): string {
    return `${this.prefix}response:`;
  }

  /** The id of the response holding an item (what an `item_reference` names). */
  item(owner: string, itemId: string): string {
    return `${this.prefix}item:${owner}:${itemId}`;
  }

  /** A sorted set of every response key by the time it was made: `maxResponses` over every replica. */
  index(): string {
    return `${this.prefix}responses`;
  }

  /** A sorted set of one owner's response keys by the time each was made: its oldest go first. */
  ownerIndex(owner: string): string {
    return `${this.ownerIndexStem()}${owner}`;
  }

  /** What every owner's index key starts with: the scripts name another owner's index from it. */
  ownerIndexStem(): string {
    return `${this.prefix}responses-of:`;
  }

  /** A hash: each response key -> the bytes it was counted at (still known once the response has expired). */
  sizes(): string {
    return `${this.prefix}sizes`;
  }

  /** Sorted sets of the owners by the bytes, and by the responses, they hold: who is largest when the store is full. */
  ownerBytes(): string {
    return `${this.prefix}owner-bytes`;
  }

  ownerCounts(): string {
    return `${this.prefix}owner-responses`;
  }

  /** The bytes every response takes, together (`maxBytes`). */
  bytes(): string {
    return `${this.prefix}bytes`;
  }

  /** A background run's lease, held by the replica running it. */
  lease(owner: string, id: string): string {
    return `${this.prefix}run:${owner}:${id}`;
  }

  /** Where a cancel is published for the replica running the run. */
  cancelChannel(): string {
    return `${this.prefix}cancel`;
  }
}
