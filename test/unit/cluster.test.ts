/** src/cluster.ts: the --workers value, and which llama-cpp backends the workers share. */
import { availableParallelism } from 'node:os';
import { parseWorkers, sharedLlamaBackends } from '../../src/cluster.js';
import { loadConfig } from '../../src/configuration.js';

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
