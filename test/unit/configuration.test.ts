import { ConfigError, loadConfig, substituteEnv } from '../../src/runtime/configuration.js';
import { DEFAULT_LIMITS } from '../../src/config/settings.js';

const minimal = { backends: { up: { kind: 'openai', url: 'https://example.test/v1' } }, routes: [{ model: '*', backend: 'up' }] };

describe('loadConfig', () => {
  test('fills server defaults and freezes the result', () => {
    const config = loadConfig(minimal, {});
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: 8080,
      apiKeys: [],
      maxBodyBytes: 10 * 1024 * 1024,
      logLevel: 'info',
      sseKeepAliveMs: 15_000,
      shutdownGraceMs: 30_000,
      allowUnauthenticated: false,
      inspector: true,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 20_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 4096,
      maxConnectionsPerAddress: 1024,
      maxPipelinedRequests: 8,
      warmUpMs: 1000,
    });
    expect(config.limits).toEqual(DEFAULT_LIMITS);
    expect(Object.isFrozen(config.backends.up)).toBe(true);
  });

  test('limits: a key set replaces its default, an unknown or non-positive one stops start-up naming it', () => {
    expect(loadConfig({ ...minimal, limits: { promptBatch: '16' } }, {}).limits).toEqual({ ...DEFAULT_LIMITS, promptBatch: 16 });
    expect(() => loadConfig({ ...minimal, limits: { promptBatches: 16 } }, {})).toThrow(/limits\.promptBatches: unknown key/);
    expect(() => loadConfig({ ...minimal, limits: { choices: 0 } }, {})).toThrow(/limits\.choices: must be an integer >= 1/);
  });

  test('substitutes ${ENV} and ${ENV:-default}, turning numeric settings into numbers', () => {
    const config = loadConfig(
      {
        server: { port: '${PORT:-9090}', apiKeys: ['${KEY}'] },
        backends: { local: { kind: 'llama-cpp', model: 'builtin', parallel: '${PAR}' } },
        routes: [{ model: '*', backend: 'local' }],
      },
      { KEY: 'k1', PAR: '3' },
    );
    expect(config.server.port).toBe(9090);
    expect(config.server.apiKeys).toEqual(['k1']);
    expect(config.backends.local).toMatchObject({ parallel: 3 });
  });

  test('an unset variable without a default names the key', () => {
    expect(() => loadConfig({ ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', apiKey: '${NOPE}' } } }, {})).toThrow(
      new ConfigError('backends.up.apiKey', 'environment variable NOPE is not set (use ${NOPE:-default} to allow that)'),
    );
  });

  test.each([
    [{ ...minimal, extra: 1 }, 'config: extra: unknown key'],
    [{ ...minimal, backends: { up: { kind: 'nope', url: 'https://x' } } }, 'config: backends.up.kind: must be one of'],
    [{ ...minimal, backends: { up: { kind: 'openai' } } }, 'config: backends.up.url: required'],
    [{ ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', speaks: ['images'] } } }, 'config: backends.up.speaks'],
    [
      { ...minimal, backends: { up: { kind: 'llama-cpp', model: 'builtin', parallel: 0 } } },
      'config: backends.up.parallel: must be an integer >= 1',
    ],
    [
      { ...minimal, backends: { up: { kind: 'llama-cpp', model: 'builtin', streamBatchMs: -1 } } },
      'config: backends.up.streamBatchMs: must be an integer >= 0',
    ],
    [{ ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', jinja: true } } }, 'config: backends.up.jinja: unknown key'],
    [
      { ...minimal, backends: { up: { kind: 'llama-server', url: 'http://x/v1', jinja: 'yes' } } },
      'config: backends.up.jinja: must be true or false',
    ],
    [{ ...minimal, routes: [{ model: '*', backend: 'missing' }] }, 'config: routes[0].backend: must name one of the backends (up)'],
    [{ ...minimal, routes: [] }, 'config: routes: a non-empty list is required'],
    [
      { ...minimal, routes: [{ model: '*', backend: ['up', 'missing'] }] },
      'config: routes[0].backend: must name one of the backends (up), or a list of them',
    ],
    [{ ...minimal, routes: [{ model: '*', backend: ['up', 'up'] }] }, 'config: routes[0].backend: names a backend twice'],
    [
      { ...minimal, routes: [{ model: '*', backend: 'up', upstreamModels: { other: 'm' } }] },
      'config: routes[0].upstreamModels.other: not a backend of this route (up)',
    ],
    [{ ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', timeoutMs: 5 } } }, 'config: backends.up.timeoutMs: unknown key'],
    [
      { ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', timeouts: { firstByte: 5 } } } },
      'config: backends.up.timeouts.firstByte: unknown key',
    ],
    [
      { ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', timeouts: { idleMs: 0 } } } },
      'config: backends.up.timeouts.idleMs: must be an integer >= 1',
    ],
    [
      { ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', retries: { initialDelayMs: 20_000 } } } },
      'config: backends.up.retries.initialDelayMs: must not exceed maxDelayMs (10000)',
    ],
    [
      { ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', queueLimit: 3 } } },
      'config: backends.up.queueLimit: needs maxConcurrent',
    ],
    [
      { ...minimal, backends: { up: { kind: 'openai', url: 'https://x/v1', maxConcurrent: 0 } } },
      'config: backends.up.maxConcurrent: must be an integer >= 1',
    ],
    [{ ...minimal, server: { sseKeepAliveMs: 0 } }, 'config: server.sseKeepAliveMs: must be an integer >= 1'],
    [{ ...minimal, passthrough: 'other' }, 'config: passthrough: no backend named "other"'],
    [{ ...minimal, server: { port: 70000 } }, 'config: server.port: must be an integer >= 0 and <= 65535'],
  ])('rejects %j', (raw, message) => {
    expect(() => loadConfig(raw as Record<string, unknown>, {})).toThrow(message);
  });

  test('the worker takes a stream batch window, 0 included', () => {
    const config = loadConfig({ ...minimal, backends: { up: { kind: 'llama-cpp', model: 'builtin', streamBatchMs: 0 } } }, {});
    expect(config.backends.up).toMatchObject({ kind: 'llama-cpp', streamBatchMs: 0 });
  });

  test('a route may narrow efforts and set its own ladder', () => {
    const config = loadConfig(
      { ...minimal, routes: [{ model: 'o3*', backend: 'up', efforts: ['low', 'high'], effortLadder: { low: 1024, high: '8192' } }] },
      {},
    );
    expect(config.routes[0]).toEqual({ model: 'o3*', backend: 'up', efforts: ['low', 'high'], effortLadder: { low: 1024, high: 8192 } });
    expect(() => loadConfig({ ...minimal, routes: [{ model: '*', backend: 'up', effortLadder: { huge: 5 } }] }, {})).toThrow(
      'config: routes[0].effortLadder.huge: not an effort',
    );
  });

  test('reads the shipped default config', () => {
    const config = loadConfig('config/default.yaml', {});
    expect(config.backends.local).toMatchObject({ kind: 'llama-cpp', model: 'builtin' });
    expect(config.server.port).toBe(8080);
  });

  test('substituteEnv leaves non-strings alone', () => {
    expect(substituteEnv({ a: 1, b: [true, '${X}'] }, { X: 'y' }, '')).toEqual({ a: 1, b: [true, 'y'] });
  });
});

describe('config/examples', () => {
  test('remote.yaml loads, its response store included', () => {
    const config = loadConfig('config/examples/remote.yaml', { PROXY_API_KEY: 'k', OPENAI_API_KEY: 'o', FIREWORKS_API_KEY: 'f' });
    expect(config.responses.store).toEqual({
      kind: 'memory',
      maxResponses: 10000,
      maxAgeSeconds: 86400,
      storeByDefault: true,
      maxBytes: 256 * 1024 * 1024,
      maxResponseBytes: 16 * 1024 * 1024,
      maxContinuationDepth: 1000,
      // One API key: one owner, who keeps the whole store.
      maxResponsesPerKey: 10000,
      maxBytesPerKey: 256 * 1024 * 1024,
    });
  });
});

describe('unknown keys', () => {
  const minimal = { backends: { up: { kind: 'openai', url: 'https://x/v1' } }, routes: [{ model: '*', backend: 'up' }] };

  test('every unknown key is reported in one message, each with the key it was most likely meant to be', () => {
    const { routes, ...withoutRoutes } = minimal;
    const typed = {
      ...withoutRoutes,
      route: routes,
      server: { prot: 8080 },
      backends: { up: { kind: 'openai', url: 'https://x/v1', apikey: 'k' } },
    };
    expect(() => loadConfig(typed, {})).toThrow(
      /^config: 3 unknown keys: route: unknown key \(did you mean routes\?.*; server\.prot: unknown key \(did you mean port\?.*; backends\.up\.apikey: unknown key \(did you mean apiKey\?/,
    );
  });

  test('one unknown key reads as before, with its hint', () => {
    expect(() => loadConfig({ ...minimal, server: { prot: 8080 } }, {})).toThrow(
      /^config: server\.prot: unknown key \(did you mean port\? allowed: host, port,/,
    );
  });
});
