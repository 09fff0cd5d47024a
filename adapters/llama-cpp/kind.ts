/**
 * `kind: llama-cpp`: GGUF models run inside the proxy. Loads nothing itself: the
 * adapter (llama-cpp-adapter.ts) and, under `--workers N`, the shared engine
 * (shared-host.ts) are imported only once a llama-cpp backend is built or shared.
 */
import { existsSync } from 'node:fs';
import { defineKind } from '../../src/backend/backend-kind.js';
import { ConfigError } from '../../src/config/config-checks.js';
import { localModelPath, MODEL_HINT } from './model-path.js';
import { checkLlamaCppSettings, LLAMA_CPP_KEYS } from './settings.js';

export const llamaCppKind = defineKind({
  name: 'llama-cpp',
  provider: 'llama.cpp',
  remote: false,
  keys: LLAMA_CPP_KEYS,
  check: checkLlamaCppSettings,
  defaults: { kind: 'llama-cpp', model: 'builtin' },
  checkBeforeStart(settings, key) {
    const path = localModelPath(settings.model);
    if (path !== undefined && !existsSync(path)) throw new ConfigError(`${key}.model`, `no file ${path} (model: takes ${MODEL_HINT})`);
  },
  // Not an engine of its own in each process of --workers (perWorker): only the primary would have taken it.
  startEarly(settings) {
    if (settings.perWorker) return;
    import('./worker-process.js').then(
      ({ forkSpareWorker }) => void forkSpareWorker(),
      () => undefined,
    );
  },
  async create(name, settings) {
    const { createLlamaCppAdapter } = await import('./llama-cpp-adapter.js');
    return createLlamaCppAdapter(name, settings);
  },
  // One model in memory for every process of `--workers N`, unless `perWorker: true` (shared-host.ts).
  sharedEngine: {
    label: 'llama.cpp',
    shares: (settings) => !settings.perWorker,
    async serve(backends) {
      const [{ serveSharedLlamaHosts }, { engineOptions }] = await Promise.all([
        import('./shared-host.js'),
        import('./llama-cpp-adapter.js'),
      ]);
      return serveSharedLlamaHosts(new Map([...backends].map(([name, settings]) => [name, engineOptions(settings)])));
    },
    async relay(backends) {
      const { RelayedLlamaHost, useLlamaHosts } = await import('./shared-host.js');
      useLlamaHosts((backend) => (backends.has(backend) ? new RelayedLlamaHost(backend) : undefined));
    },
  },
});
