/** The configured response store, or none (the proxy stays stateless). A new kind of store is one more case here. */
import type { ResponseStoreSettings } from '../config/settings.js';
import { MemoryResponseStore } from './memory-store.js';
import type { ResponseStore } from './response-store.js';

export function createResponseStore(settings: ResponseStoreSettings | undefined): ResponseStore | undefined {
  if (!settings) return undefined;
  return new MemoryResponseStore(settings);
}
