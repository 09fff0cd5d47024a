/** `kind: llama-cpp` in a config file: its settings and their check. Loads nothing (node-llama-cpp stays unloaded until a backend is built). */
import { ConfigError, integerField, optionalBoolean } from '../../src/config/config-checks.js';
import type { BackendCommon } from '../../src/config/settings.js';
import { configurableLlamaOptions, type ConfigurableLlamaOptions } from './types.js';

/** The bundled worker: its options are documented where the worker reads them (LlamaBackendOptions). */
export interface LlamaCppSettings extends BackendCommon, ConfigurableLlamaOptions {
  /**
   * Under `dialect-proxy --workers N`: each of the N processes loads its own copy of the model (N x its
   * memory, N x `threads`). Default false: one copy, in one engine all the processes share.
   */
  perWorker?: boolean;
  /**
   * The most a request that sets no max_tokens may generate, named in a warning (without it: until the
   * context is full, which on a context sized for coding agents is minutes of text nobody asked for).
   */
  defaultMaxTokens?: number;
}

/** The keys `checkLlamaCppSettings` reads. */
export const LLAMA_CPP_KEYS: readonly string[] = [...configurableLlamaOptions, 'perWorker', 'defaultMaxTokens'];

export function checkLlamaCppSettings(backend: Record<string, unknown>, key: string): LlamaCppSettings {
  if (typeof backend.model !== 'string' || backend.model === '')
    throw new ConfigError(`${key}.model`, 'required: builtin, a .gguf path, or hf:owner/repo/file.gguf');
  integerField(backend, 'contextSize', key, 16);
  integerField(backend, 'parallel', key, 1, 64);
  integerField(backend, 'queueLimit', key, 0);
  integerField(backend, 'threads', key, 1, 256);
  integerField(backend, 'streamBatchMs', key, 0, 1000);
  integerField(backend, 'defaultMaxTokens', key, 1);
  optionalBoolean(backend.perWorker, `${key}.perWorker`);
  return backend as unknown as LlamaCppSettings;
}
