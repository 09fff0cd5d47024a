/**
 * The redis response store: shared by every replica and `--workers` process
 * pointed at the same Redis, so a response created on one is read, continued,
 * referenced and deleted on any other right after (see response-store.ts).
 *
 * Each response is a hash (its JSON and its status: a cancelled one is not
 * replaced), each of its items a key naming it. Every write runs as one
 * script (redis-scripts.ts) that also keeps the counts the bounds need, over
 * every replica: per owner (`maxResponsesPerKey`, `maxBytesPerKey`: past
 * either, the owner's own oldest go first) and in all (`maxResponses`,
 * `maxBytes`: past either, the oldest of the owner holding the most). Every
 * key expires after `maxAgeSeconds` (redis-keys.ts names them). One Redis,
 * not a Redis Cluster: a put touches several keys in one script.
 */
import type { Redis } from 'ioredis';
import type { RedisResponseStoreSettings } from '../config/settings.js';
import { RedisConnection, type StoreServices } from './redis-connection.js';
import { RedisKeys } from './redis-keys.js';
import { RedisRuns } from './redis-runs.js';
import { DELETE_SCRIPT, PUT_SCRIPT } from './redis-scripts.js';
import { itemIds, itemsOf, ResponseTooLarge, type ResponseStore, type StoredResponse } from './response-store.js';

/** The scripts, as ioredis names them on the client: each is sent by its digest, its text only where Redis has not cached it. */
type ScriptedRedis = Redis & {
  dialectProxyPut(keyCount: number, ...keysAndArgs: string[]): Promise<unknown>;
  dialectProxyDelete(keyCount: number, ...keysAndArgs: string[]): Promise<unknown>;
};

/** The bounds past `maxResponses` may be left out (the store then has none of that kind). */
type StoreSettings = Omit<
  RedisResponseStoreSettings,
  'kind' | 'storeByDefault' | 'maxContinuationDepth' | 'maxBytes' | 'maxResponsesPerKey' | 'maxBytesPerKey'
> &
  Partial<Pick<RedisResponseStoreSettings, 'maxBytes' | 'maxResponsesPerKey' | 'maxBytesPerKey'>>;

export class RedisResponseStore implements ResponseStore {
  readonly kind = 'redis';
  readonly runs: RedisRuns;
  private readonly connection: RedisConnection;
  private readonly keys: RedisKeys;

  constructor(
    private readonly settings: StoreSettings,
    services: StoreServices = {},
  ) {
    this.connection = new RedisConnection(settings, services, { dialectProxyPut: PUT_SCRIPT, dialectProxyDelete: DELETE_SCRIPT });
    this.keys = new RedisKeys(settings.keyPrefix);
    this.runs = new RedisRuns(this.connection, this.keys, settings);
  }

  async get(id: string, owner: string): Promise<StoredResponse | undefined> {
    const json = await this.connection.run('get', (redis) => redis.hget(this.keys.response(owner, id), 'entry'));
    return json === null ? undefined : (JSON.parse(json) as StoredResponse);
  }

  async put(stored: StoredResponse, onlyReplacing?: readonly string[]): Promise<boolean> {
    const { id } = stored.response;
    const json = JSON.stringify(stored);
    const bytes = Buffer.byteLength(json);
    if (bytes > this.settings.maxResponseBytes) throw new ResponseTooLarge(bytes, this.settings.maxResponseBytes);
    const { owner } = stored;
    const common = this.common(owner, id);
    const keys = [...common.keys, ...new Set(itemIds(stored).map((itemId) => this.keys.item(owner, itemId)))];
    const status = typeof stored.response.status === 'string' ? stored.response.status : '';
    const replacing = onlyReplacing ? ` ${onlyReplacing.join(' ')} ` : '';
    const { maxAgeSeconds, maxResponses, maxBytes, maxResponsesPerKey, maxBytesPerKey } = this.settings;
    const bounds = [maxResponses, maxBytes, maxResponsesPerKey, maxBytesPerKey].map((bound) => String(bound ?? Number.MAX_SAFE_INTEGER));
    const args = [...common.args, json, status, String(maxAgeSeconds * 1000), id, replacing, String(bytes), ...bounds];
    return (await this.connection.run('put', (redis) => (redis as ScriptedRedis).dialectProxyPut(keys.length, ...keys, ...args))) === 1;
  }

  async findItem(itemId: string, owner: string): Promise<unknown> {
    const responseId = await this.connection.run('find_item', (redis) => redis.get(this.keys.item(owner, itemId)));
    const stored = responseId === null ? undefined : await this.get(responseId, owner);
    return stored && itemsOf(stored).find((item) => item.id === itemId);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const { keys, args } = this.common(owner, id);
    // Its item keys are left to expire: they name a response that is gone, which reads as no item.
    const deleted = await this.connection.run('delete', (redis) =>
      (redis as ScriptedRedis).dialectProxyDelete(keys.length, ...keys, ...args),
    );
    return deleted === 1;
  }

  /** The keys and arguments both scripts start with (redis-scripts.ts). */
  private common(owner: string, id: string): { keys: string[]; args: string[] } {
    const { keys } = this;
    return {
      keys: [
        keys.response(owner, id),
        keys.index(),
        keys.sizes(),
        keys.ownerBytes(),
        keys.ownerCounts(),
        keys.bytes(),
        keys.ownerIndex(owner),
      ],
      args: [owner, keys.responseStem(), keys.ownerIndexStem()],
    };
  }

  checkAvailable(): Promise<void> {
    return this.connection.checkAvailable();
  }

  health(): 'ok' | 'degraded' {
    return this.connection.isReachable() ? 'ok' : 'degraded';
  }

  async close(): Promise<void> {
    this.runs.close();
    await this.connection.close();
  }
}
