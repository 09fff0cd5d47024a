/**
 * The connection behind the redis response store. ioredis is imported when
 * the store is built, so a proxy without one never loads it (chosen over
 * node-redis, which waits forever for a stalled server once a command is
 * written: its timeout covers only the wait to be written).
 *
 * Every command is bounded by `commandTimeoutMs`, also while the connection is
 * down (commands wait for a reconnect at most that long), and fails as the 503
 * `store_unavailable`: a request that needs the store gets a clean answer,
 * never a hang. The client reconnects on its own, backing off up to 2 s.
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { RedisResponseStoreSettings } from '../config/settings.js';
import { storeUnavailable } from '../errors/catalogue.js';
import type { StoreObserver } from './response-store.js';

/** Where the connection says it went down or came back (the proxy's logger fits). */
export interface StoreLog {
  warn(message: string, meta?: Record<string, unknown>): unknown;
  info(message: string, meta?: Record<string, unknown>): unknown;
}

export interface StoreServices {
  observer?: StoreObserver;
  log?: StoreLog;
}

type ConnectionSettings = Pick<RedisResponseStoreSettings, 'url' | 'connectTimeoutMs' | 'commandTimeoutMs'>;

export class RedisConnection {
  private readonly client: Promise<Redis>;
  private readonly subscribers: Redis[] = [];
  /** `connecting` until the first connection is made or fails: a store not yet reached is not yet degraded. */
  private state: 'connecting' | 'up' | 'down' = 'connecting';
  /** The last command timed out: connected, but too slow to count on until one answers in time. */
  private slow = false;
  private probing = false;
  private closed = false;

  /** `scripts`: Lua scripts by name, defined on the client (ioredis sends each by its digest, its text after a NOSCRIPT). */
  constructor(
    private readonly settings: ConnectionSettings,
    private readonly services: StoreServices = {},
    private readonly scripts: Readonly<Record<string, string>> = {},
  ) {
    this.client = this.open('commands', { commandTimeout: settings.commandTimeoutMs });
    // A client that cannot even be built (a bad URL) fails each command; nothing is left unhandled meanwhile.
    this.client.catch(() => undefined);
  }

  /**
   * Runs one store operation, timed for `/metrics`; any failure of Redis is the 503 `store_unavailable`.
   * @example const json = await connection.run('get', (redis) => redis.hget(key, 'entry'));
   */
  async run<T>(operation: string, command: (redis: Redis) => Promise<T>): Promise<T> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const value = await command(await this.client);
      this.slow = false;
      this.services.observer?.storeOperation(operation, seconds());
      return value;
    } catch (error) {
      const timedOut = /timed out/i.test((error as Error)?.message ?? '');
      if (timedOut) this.slow = true;
      this.services.observer?.storeOperation(operation, seconds(), timedOut ? 'timeout' : 'unavailable');
      throw storeUnavailable(
        timedOut ? `Redis did not answer within ${this.settings.commandTimeoutMs} ms` : `Redis ${callerReason(error)}`,
      );
    }
  }

  /** Resolves at once while connected and answering in time; otherwise once Redis answers, within the command timeout. */
  async checkAvailable(): Promise<void> {
    if (!this.slow && (await this.client.catch(() => undefined))?.status === 'ready') return;
    await this.run('ping', (redis) => redis.ping());
  }

  /** False once Redis could not be reached, or did not answer in time, until it does again. */
  isReachable(): boolean {
    if (this.slow && !this.probing) {
      // Asked while slow (by /healthz, a scrape): one ping, so the answer comes back once Redis does.
      this.probing = true;
      this.run('ping', (redis) => redis.ping())
        .catch(() => undefined)
        .finally(() => (this.probing = false));
    }
    return this.state !== 'down' && !this.slow;
  }

  /** Listens on `channel` over a connection of its own (a subscribed connection takes no other command); resubscribes after a reconnect. */
  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    // No command timeout here: the subscription waits for Redis as long as it takes. Resubscribed here, not by
    // ioredis: its own resubscribe leaves its promise unhandled, and a connection lost again before the answer
    // (a Redis flapping, or close() meanwhile) would end the process with an unhandled rejection.
    const subscriber = await this.open('subscriber', { autoResubscribe: false });
    if (this.closed) {
      subscriber.disconnect();
      return;
    }
    this.subscribers.push(subscriber);
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) onMessage(message);
    });
    let subscribed = false;
    subscriber.on('ready', () => {
      if (subscribed) subscriber.subscribe(channel).catch(() => undefined);
    });
    await subscriber.subscribe(channel);
    subscribed = true;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const subscriber of this.subscribers) subscriber.disconnect();
    (await this.client.catch(() => undefined))?.disconnect();
  }

  private async open(role: 'commands' | 'subscriber', options: RedisOptions): Promise<Redis> {
    const { Redis } = await import('ioredis');
    const client = new Redis(this.settings.url, {
      connectTimeout: this.settings.connectTimeoutMs,
      // Commands wait through a reconnect, bounded by commandTimeout rather than by a count of retries.
      maxRetriesPerRequest: null,
      retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
      ...options,
    });
    const { log } = this.services;
    if (role === 'subscriber') {
      client.on('error', () => undefined); // the command connection says it
      return client;
    }
    for (const [name, lua] of Object.entries(this.scripts)) client.defineCommand(name, { lua });
    // Said once per outage, not once per reconnect attempt; ioredis names the host, never the password.
    const down = (error?: unknown) => {
      if (this.state === 'down' || this.closed) return;
      log?.warn(
        `response store: Redis ${this.state === 'up' ? 'connection lost' : 'cannot be reached'}; requests that need the store answer 503 store_unavailable until it is back`,
        error === undefined ? {} : { error: (error as Error)?.message ?? String(error) },
      );
      this.state = 'down';
    };
    client.on('error', down);
    client.on('close', () => down());
    client.on('ready', () => {
      if (this.state === 'down') log?.info('response store: Redis connected again');
      this.state = 'up';
      this.slow = false;
    });
    return client;
  }
}

/** Redis's own refusals (OOM, NOAUTH) say what is wrong; a socket error would name an internal address, so the caller hears less (the log has it). */
function callerReason(error: unknown): string {
  return (error as Error)?.name === 'ReplyError' ? `refused: ${(error as Error).message}` : 'cannot be reached';
}
