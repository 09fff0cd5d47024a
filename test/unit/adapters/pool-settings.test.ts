/** The pool settings of a remote backend (`urls`, `health`, `ejection`): each mistake names its key. */
import { loadConfig } from '../../../src/runtime/configuration.js';

const config = (backend: Record<string, unknown>) => ({
  backends: { pool: { kind: 'vllm', ...backend } },
  routes: [{ model: '*', backend: 'pool' }],
});
const urls = ['http://10.0.0.1:8000/v1', 'http://10.0.0.2:8000/v1'];

describe('pool settings', () => {
  it('takes urls with health and ejection, integers from the environment as numbers', () => {
    const loaded = loadConfig(
      config({
        urls,
        health: { path: '/health', intervalMs: '${EVERY}', failures: 3 },
        ejection: { failures: 0, baseMs: 100, maxMs: 100 },
      }),
      { EVERY: '2000' },
    );
    expect(loaded.backends.pool).toMatchObject({
      urls,
      health: { path: '/health', intervalMs: 2000, failures: 3 },
      ejection: { failures: 0 },
    });
  });

  test.each([
    [{}, 'config: backends.pool.url: required: an http(s) URL such as https://api.openai.com/v1 (or urls: a list of replicas)'],
    [{ url: urls[0], urls }, 'config: backends.pool.urls: cannot be combined with url'],
    [{ urls: [] }, 'config: backends.pool.urls: must list at least one http(s) URL'],
    [{ urls: 'http://10.0.0.1:8000/v1' }, 'config: backends.pool.urls: must be a list of strings'],
    [{ urls: [urls[0], 'ftp://x/v1'] }, 'config: backends.pool.urls[1]: must be an http(s) URL'],
    [{ urls: [urls[0], `${urls[0]}/`] }, 'config: backends.pool.urls[1]: lists http://10.0.0.1:8000/v1/ twice'],
    [{ urls: [urls[0], 'https://10.0.0.2/v1'] }, 'config: backends.pool.urls: must all be http or all be https'],
    [{ url: urls[0], health: { path: '/health' } }, 'config: backends.pool.health: only for a pool of replicas (urls)'],
    [{ url: urls[0], ejection: { failures: 1 } }, 'config: backends.pool.ejection: only for a pool of replicas (urls)'],
    [{ urls, health: '/health' }, 'config: backends.pool.health: must be a mapping'],
    [{ urls, health: { intervalMs: 1000 } }, 'config: backends.pool.health.path: required'],
    [{ urls, health: { path: '/health', intervalMs: 5 } }, 'config: backends.pool.health.intervalMs: must be an integer >= 10'],
    [{ urls, health: { path: '/health', timeoutMs: 0 } }, 'config: backends.pool.health.timeoutMs: must be an integer >= 1'],
    [{ urls, health: { path: '/health', failures: 0 } }, 'config: backends.pool.health.failures: must be an integer >= 1'],
    [{ urls, health: { path: '/health', every: 1 } }, 'config: backends.pool.health.every: unknown key'],
    [{ urls, ejection: { failures: -1 } }, 'config: backends.pool.ejection.failures: must be an integer >= 0'],
    [{ urls, ejection: { baseMs: 0 } }, 'config: backends.pool.ejection.baseMs: must be an integer >= 1'],
    [{ urls, ejection: { baseMs: 5000, maxMs: 1000 } }, 'config: backends.pool.ejection.baseMs: must not exceed maxMs (1000)'],
    [{ urls, ejection: { seconds: 1 } }, 'config: backends.pool.ejection.seconds: unknown key'],
  ])('%j -> %s', (backend, message) => {
    expect(() => loadConfig(config(backend), {})).toThrow(message);
  });
});

describe('config/examples/pool.yaml', () => {
  it('loads', () => {
    expect(loadConfig('config/examples/pool.yaml', {}).backends.gpus).toMatchObject({
      kind: 'vllm',
      urls: ['http://127.0.0.1:8001/v1', 'http://127.0.0.1:8002/v1', 'http://127.0.0.1:8003/v1'],
    });
  });
});
