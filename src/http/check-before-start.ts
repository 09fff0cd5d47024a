/**
 * A server start's first steps, per backend: what it needs on this machine (a model file),
 * checked before it listens (a start that would only fail later is one line now, naming the key),
 * and its slow work begun early.
 */
import { findKind } from '../../adapters/registry.js';
import type { ProxyConfig } from '../config/settings.js';

/**
 * Asks each backend's kind (its `checkBeforeStart`); throws the first ConfigError.
 * @example checkBeforeStart(loadConfig('proxy.yaml')) // config: backends.local.model: no file /models/x.gguf (...)
 */
export function checkBeforeStart(config: Pick<ProxyConfig, 'backends'>): void {
  for (const [name, settings] of Object.entries(config.backends)) findKind(settings.kind)?.checkBeforeStart?.(settings, `backends.${name}`);
}

/** Begins each backend's slow start-up work (the llama-cpp kind's worker process) while the server's modules load. */
export function startBackendsEarly(config: Pick<ProxyConfig, 'backends'>): void {
  for (const settings of Object.values(config.backends)) findKind(settings.kind)?.startEarly?.(settings);
}
