/** `GET /v1/models` as a chat UI's model picker sees it (the `openai` SDK's models.list()). */
import OpenAI from 'openai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuiltinModel } from '../../adapters/llama-cpp/builtin-model.js';
import { createLlamaCppAdapter } from '../../adapters/llama-cpp/llama-cpp-adapter.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const list = async (proxy: RunningServer) => {
  const page = await new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'unused' }).models.list();
  return page.data.map(({ id, object, owned_by }) => ({ id, object, owned_by }));
};

describe('the bundled worker', () => {
  let cacheDir: string;
  const cacheBefore = process.env.DIALECT_PROXY_CACHE;
  beforeAll(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'dialect-proxy-models-'));
    process.env.DIALECT_PROXY_CACHE = cacheDir;
  });
  afterAll(() => {
    if (cacheBefore === undefined) delete process.env.DIALECT_PROXY_CACHE;
    else process.env.DIALECT_PROXY_CACHE = cacheBefore;
    rmSync(cacheDir, { recursive: true, force: true });
  });

  test('the default config (one `*` route) lists the built-in model', async () => {
    const proxy = await startServer(loadConfig('config/default.yaml'), {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ silent: true }),
    });
    try {
      await proxy.proxy.ready;
      expect(await list(proxy)).toEqual([{ id: 'builtin', object: 'model', owned_by: 'local' }]);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  test('a GGUF file is listed by the name its metadata gives (general.name)', async () => {
    const adapter = createLlamaCppAdapter('local', { model: ensureBuiltinModel(cacheDir), cacheDir, showProgress: false });
    try {
      expect(adapter.models).toBeUndefined();
      await adapter.start();
      expect(adapter.models).toEqual(['dialect-proxy builtin']);
    } finally {
      await adapter.close();
    }
  }, 60_000);
});

describe('a remote backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream();
    const config = loadConfig({
      backends: {
        openai: { kind: 'openai', url: upstream.url, models: ['gpt-4o', 'gpt-4o-mini'] },
        spare: { kind: 'vllm', url: upstream.url, models: ['never-listed'] },
        fireworks: { kind: 'fireworks', url: upstream.url },
      },
      routes: [
        { model: 'accounts/fireworks/models/llama-v3p1-8b-instruct', backend: 'fireworks' },
        { model: 'gpt-4o', backend: 'openai' },
        { model: '*', backend: ['openai', 'spare'] },
      ],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a wildcard route lists the `models` of its first backend, after the literal routes, each once', async () => {
    expect(await list(proxy)).toEqual([
      { id: 'accounts/fireworks/models/llama-v3p1-8b-instruct', object: 'model', owned_by: 'fireworks' },
      { id: 'gpt-4o', object: 'model', owned_by: 'openai' },
      { id: 'gpt-4o-mini', object: 'model', owned_by: 'openai' },
    ]);
    // Listed from config: the upstream is not asked.
    expect(upstream.requests).toEqual([]);
  });
});
