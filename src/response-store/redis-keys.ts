/**
 * Every key and channel of the redis store, under its `keyPrefix`. The owner is in each key of an
 * owner's state: another owner's lookup misses, as for an id that does not exist. Owners are
 * fixed-length digests (or '' without API keys) holding no ':', so no two owners' keys can meet.
 */
export class RedisKeys {
  constructor(private readonly prefix: string) {}

  /** A hash: the stored response's JSON (`entry`) and its `status`. */
  response(owner: string, id: string): string {
    return `${this.prefix}response:${owner}:${id}`;
  }

  /** The id of the response holding an item (what an `item_reference` names). */
  item(owner: string, itemId: string): string {
    return `${this.prefix}item:${owner}:${itemId}`;
  }

  /** A sorted set of every response key by the time it was made: `maxResponses` over every replica. */
  index(): string {
    return `${this.prefix}responses`;
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
