/**
 * The redis response store: shared by every replica and `--workers` process
 * pointed at the same Redis, so a response created on one is read, continued,
 * referenced and deleted on any other right after (see response-store.ts).
 *
 * Each response is a hash (its JSON and its status: a cancelled one is not
 * replaced), each of its items a key naming it, and a sorted set counts them
 * all for `maxResponses` (the oldest go first); every key expires after
 * `maxAgeSeconds` (redis-keys.ts names them). Bytes in all are not counted
 * here (`maxBytes` is refused for this kind): Redis's own `maxmemory` bounds
 * them. One Redis, not a Redis Cluster: a put touches several keys in one
 * script.
 */
import type { Redis } from 'ioredis';
import type { RedisResponseStoreSettings } from '../config/settings.js';
import { RedisConnection, type StoreServices } from './redis-connection.js';
import { RedisKeys } from './redis-keys.js';
import { RedisRuns } from './redis-runs.js';
import { itemIds, itemsOf, ResponseTooLarge, type ResponseStore, type StoredResponse } from './response-store.js';

/**
 * KEYS: the response, the index, its items. ARGV: the entry's JSON, its status, the max age in ms,
 * the response id, maxResponses, and the statuses it may replace (space-separated, each between
 * spaces; empty: any). A replaced entry keeps its expiry; a cancelled one stays.
 */
const PUT_SCRIPT = `
local age = tonumber(ARGV[3])
local ttl = redis.call('PTTL', KEYS[1])
local current = redis.call('HGET', KEYS[1], 'status')
if ARGV[6] ~= '' and (not current or not string.find(ARGV[6], ' ' .. current .. ' ', 1, true)) then return 0 end
if ttl > 0 then
  if current == 'cancelled' and ARGV[2] ~= 'cancelled' then return 0 end
else
  ttl = age
end
redis.call('HSET', KEYS[1], 'entry', ARGV[1], 'status', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 3, #KEYS do redis.call('SET', KEYS[i], ARGV[4], 'PX', ttl) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if redis.call('ZADD', KEYS[2], 'NX', now, KEYS[1]) == 1 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - age)
  local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
  if over > 0 then
    local oldest = redis.call('ZPOPMIN', KEYS[2], over)
    for i = 1, #oldest, 2 do redis.call('DEL', oldest[i]) end
  end
end
redis.call('PEXPIRE', KEYS[2], age)
return 1
`;

/** The put script, as ioredis names it on the client: it is sent by its digest, its text only where Redis has not cached it. */
type ScriptedRedis = Redis & { dialectProxyPut(keyCount: number, ...keysAndArgs: string[]): Promise<unknown> };

type StoreSettings = Omit<RedisResponseStoreSettings, 'kind' | 'storeByDefault' | 'maxContinuationDepth'>;

export class RedisResponseStore implements ResponseStore {
  readonly kind = 'redis';
  readonly runs: RedisRuns;
  private readonly connection: RedisConnection;
  private readonly keys: RedisKeys;

  constructor(
    private readonly settings: StoreSettings,
    services: StoreServices = {},
  ) {
    this.connection = new RedisConnection(settings, services, { dialectProxyPut: PUT_SCRIPT });
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
    const keys = [
      this.keys.response(stored.owner, id),
      this.keys.index(),
      ...new Set(itemIds(stored).map((itemId) => this.keys.item(stored.owner, itemId))),
    ];
    const status = typeof stored.response.status === 'string' ? stored.response.status : '';
    const replacing = onlyReplacing ? ` ${onlyReplacing.join(' ')} ` : '';
    const args = [json, status, String(this.settings.maxAgeSeconds * 1000), id, String(this.settings.maxResponses), replacing];
    return (await this.connection.run('put', (redis) => (redis as ScriptedRedis).dialectProxyPut(keys.length, ...keys, ...args))) === 1;
  }

  async findItem(itemId: string, owner: string): Promise<unknown> {
    const responseId = await this.connection.run('find_item', (redis) => redis.get(this.keys.item(owner, itemId)));
    const stored = responseId === null ? undefined : await this.get(responseId, owner);
    return stored && itemsOf(stored).find((item) => item.id === itemId);
  }

  async delete(id: string, owner: string): Promise<boolean> {
    const key = this.keys.response(owner, id);
    // Its item keys are left to expire: they name a response that is gone, which reads as no item.
    const [deleted] = await this.connection.run('delete', (redis) => Promise.all([redis.del(key), redis.zrem(this.keys.index(), key)]));
    return deleted === 1;
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
