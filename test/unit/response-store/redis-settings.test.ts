/**
 * `responses.store: {kind: redis}` in the config: what it takes, its defaults, what it refuses
 * and why; `--workers` takes it (the refusal stays for memory). That its client, ioredis, is loaded
 * only by a proxy that has a redis store: redis-client-loading.test.ts (on the build).
 */
import { checkResponseStoreShared } from '../../../src/http/cluster.js';
import { loadConfig } from '../../../src/runtime/configuration.js';

const config = (store: Record<string, unknown>) =>
  loadConfig({
    responses: { store },
    backends: { r: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } },
    routes: [{ model: '*', backend: 'r' }],
  });

describe('responses.store kind redis', () => {
  test('takes a URL and fills in the rest', () => {
    expect(config({ kind: 'redis', url: 'rediss://:secret@cache.example:6380/2' }).responses.store).toEqual({
      kind: 'redis',
      url: 'rediss://:secret@cache.example:6380/2',
      keyPrefix: 'dialect-proxy:',
      connectTimeoutMs: 5000,
      commandTimeoutMs: 2000,
      runLeaseSeconds: 15,
      maxResponses: 10_000,
      maxAgeSeconds: 86_400,
      storeByDefault: true,
      maxResponseBytes: 16 * 1024 * 1024,
      maxContinuationDepth: 1000,
      maxBytes: 256 * 1024 * 1024,
      maxResponsesPerKey: 10_000,
      maxBytesPerKey: 256 * 1024 * 1024,
    });
  });

  test.each([
    [{ kind: 'redis' }, 'responses.store.url: required with kind redis'],
    [{ kind: 'redis', url: 'http://cache:6379' }, 'responses.store.url: required with kind redis: redis://'],
    [
      { kind: 'redis', url: 'redis://cache', maxBytesPerKey: 4096, maxResponseBytes: 8192 },
      'responses.store.maxBytesPerKey: must be at least maxResponseBytes',
    ],
    [{ kind: 'redis', url: 'redis://cache', commandTimeoutMs: 0 }, 'responses.store.commandTimeoutMs'],
    [{ kind: 'memory', url: 'redis://cache' }, 'responses.store'],
    [{ kind: 'postgres' }, "responses.store.kind: must be 'memory' (this process only) or 'redis'"],
  ])('refuses %j, naming the key', (store, message) => {
    expect(() => config(store)).toThrow(message);
  });

  test('runs under --workers, where memory is refused', () => {
    expect(() => checkResponseStoreShared(config({ kind: 'redis', url: 'redis://cache' }), 4)).not.toThrow();
    expect(() => checkResponseStoreShared(config({ kind: 'memory' }), 4)).toThrow(/kind: redis/);
  });
});
