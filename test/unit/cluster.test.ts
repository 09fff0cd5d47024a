/** src/http/cluster.ts: the --workers value, and which llama-cpp backends the workers share. */
import { availableParallelism } from 'node:os';
import { checkResponseStoreShared, parseWorkers, sharedLlamaBackends } from '../../src/http/cluster.js';
import { loadConfig } from '../../src/runtime/configuration.js';

describe('--workers', () => {
  it('takes a count or auto (one per core); 1 without it', () => {
    expect(parseWorkers(undefined)).toBe(1);
    expect(parseWorkers('3')).toBe(3);
    expect(parseWorkers('auto')).toBe(availableParallelism());
  });

  it.each(['0', '-1', '1.5', 'two', ''])('refuses %j, naming --workers', (value) => {
    expect(() => parseWorkers(value)).toThrow('config: --workers: must be a number of processes (1 or more) or auto (one per core)');
  });
});

describe('llama-cpp backends under --workers', () => {
  const config = (perWorker?: unknown) => ({
    backends: {
      shared: { kind: 'llama-cpp', model: 'builtin' },
      own: { kind: 'llama-cpp', model: 'builtin', ...(perWorker === undefined ? {} : { perWorker }) },
      remote: { kind: 'openai', url: 'http://127.0.0.1:1/v1' },
    },
    routes: [{ model: '*', backend: 'shared' }],
  });

  it('share one engine unless perWorker: true', () => {
    expect(sharedLlamaBackends(loadConfig(config(true), {}))).toEqual(['shared']);
    expect(sharedLlamaBackends(loadConfig(config(false), {}))).toEqual(['shared', 'own']);
  });

  it('checks perWorker', () => {
    expect(() => loadConfig(config('yes'), {})).toThrow('config: backends.own.perWorker: must be true or false');
  });
});

describe('the in-memory response store under --workers', () => {
  const config = (responses: Record<string, unknown>) =>
    loadConfig({ responses, backends: { r: { kind: 'openai', url: 'http://127.0.0.1:9/v1' } }, routes: [{ model: '*', backend: 'r' }] });

  test('is refused with several processes, naming the key and why', () => {
    expect(() => checkResponseStoreShared(config({ store: { kind: 'memory' } }), 2)).toThrow(
      /responses\.store\.kind.*one process.*--workers 2/s,
    );
  });

  test('is fine in one process, and no store is fine with any number', () => {
    expect(() => checkResponseStoreShared(config({ store: { kind: 'memory' } }), 1)).not.toThrow();
    expect(() => checkResponseStoreShared(config({}), 4)).not.toThrow();
  });
});
