/** The configured response store, or none (the proxy stays stateless). A new kind of store is one more case here. */
import type { ResponseStoreSettings } from '../config/settings.js';
import { MemoryResponseStore } from './memory-store.js';
import type { StoreServices } from './redis-connection.js';
import { RedisResponseStore } from './redis-store.js';
import type { ResponseStore } from './response-store.js';

/** `services`: where a store over the network reports its timings and its outages (the proxy's metrics and logger). */
export function createResponseStore(settings: ResponseStoreSettings | undefined, services: StoreServices = {}): ResponseStore | undefined {
  if (!settings) return undefined;
  // The redis store imports its client when it is built: a proxy without one never loads it.
  if (settings.kind === 'redis') return new RedisResponseStore(settings, services);
  return new MemoryResponseStore(settings);
}
