/**
 * Rendezvous (highest-random-weight) hashing: every replica gets a weight for
 * a key, and the key goes to the replica with the highest. The weight is a
 * hash of the replica's name and the key, the same in every process and on
 * every machine (SHA-256: never Node's per-process seeded string hash), so two
 * proxies with the same replica list agree on every key with no shared state.
 * A replica that leaves takes only its own keys away (each moves to its next
 * choice); when it comes back, exactly those return.
 */
import { createHash } from 'node:crypto';

/**
 * The weight of `replica` for `key`: 48 bits of SHA-256(replica NUL key), an
 * integer below 2^48, exact in a double.
 * @example rendezvousWeight('http://gpu-1:8000/v1', 'session-42') // the same number in every process
 */
export function rendezvousWeight(replica: string, key: string): number {
  return createHash('sha256').update(replica).update('\0').update(key).digest().readUIntBE(0, 6);
}

/**
 * `replicas` from the key's first choice to its last. Ties (as good as
 * impossible with 48 bits) fall to the lower name, so the order is total.
 * @example rankReplicas('session-42', ['http://a/v1', 'http://b/v1', 'http://c/v1'])[0] // where session-42 goes
 */
export function rankReplicas<T extends string>(key: string, replicas: readonly T[]): T[] {
  return replicas
    .map((replica) => ({ replica, weight: rendezvousWeight(replica, key) }))
    .sort((a, b) => b.weight - a.weight || (a.replica < b.replica ? -1 : a.replica > b.replica ? 1 : 0))
    .map(({ replica }) => replica);
}
