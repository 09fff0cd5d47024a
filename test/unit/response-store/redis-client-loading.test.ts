/**
 * The redis store's client, ioredis, is loaded only by a proxy that has a redis store. Runs the
 * build (dist/) in a process of its own: in the cli project, after `npm test` has built.
 */
import { execFileSync } from 'node:child_process';

describe('responses.store kind redis', () => {
  test('its client is loaded only when a redis store is built', () => {
    // A fresh process on the built code: CommonJS modules imported from ESM appear in require.cache.
    const script = `
      import { createRequire } from 'node:module';
      import { createResponseStore } from './dist/src/response-store/create-store.js';
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/node_modules/ioredis/'));
      const common = { maxResponses: 10, maxAgeSeconds: 60, storeByDefault: true, maxResponseBytes: 1024, maxContinuationDepth: 10 };
      createResponseStore({ kind: 'memory', maxBytes: 4096, ...common });
      const before = loaded();
      const store = createResponseStore({ kind: 'redis', url: 'redis://127.0.0.1:9', keyPrefix: 'p:', connectTimeoutMs: 100, commandTimeoutMs: 100, runLeaseSeconds: 1, ...common });
      const error = await store.get('resp_1', '').catch((thrown) => thrown.code);
      console.log(JSON.stringify({ before, after: loaded(), error }));
      await store.close();
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(JSON.parse(output)).toEqual({ before: false, after: true, error: 'store_unavailable' });
  });
});
