/**
 * The warm-up before ready (src/runtime/warm-up.ts): synthetic requests in
 * every dialect, JSON and streamed, answered by the loopback canned upstream
 * for every remote kind; the real backend, the proxy's metrics and its request
 * log see none of them, and `/healthz` says ready only once it is over.
 */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { warmUp } from '../../src/runtime/warm-up.js';
import { DIALECTS } from '../../src/dialects/registry.js';
import { findKind } from '../../adapters/registry.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const REMOTE_KINDS = ['openai', 'fireworks', 'vllm', 'llama-server', 'anthropic', 'gemini'];

let upstream: MockUpstream;
beforeEach(async () => {
  upstream = await startMockUpstream({ json: { error: { message: 'a real backend must not be called' } }, status: 500 });
});
afterEach(async () => upstream.close());

test('every dialect, JSON and streamed, is answered 200 through a backend of each remote kind, none of it sent to the backends', async () => {
  const backends = Object.fromEntries(REMOTE_KINDS.map((kind) => [kind, { kind, url: upstream.url, apiKey: 'sk-real-key' }]));
  const config = loadConfig({ backends, routes: [{ model: '*', backend: 'openai' }] });
  const outcome = await warmUp(config, 200);
  const round = REMOTE_KINDS.length * DIALECTS.length * 2;
  expect(outcome.failure).toBeUndefined();
  expect(outcome.requests).toBeGreaterThanOrEqual(round);
  expect(outcome.requests % round).toBe(0);
  expect(outcome.refused).toEqual({});
  expect(upstream.requests).toEqual([]);
});

test("each remote kind points a backend at the warm-up's upstream: one URL, not its pool, and not its key", () => {
  for (const kind of REMOTE_KINDS) {
    const real = {
      kind,
      urls: ['http://10.0.0.1/v1', 'http://10.0.0.2/v1'],
      apiKey: 'sk-real-key',
      maxConcurrent: 4,
      headers: { 'x-team': 'a' },
    };
    const config = loadConfig({ backends: { real }, routes: [{ model: '*', backend: 'real' }] });
    const pointed = findKind(kind)!.warmUp!.pointedAt(config.backends.real, 'http://127.0.0.1:1/v1') as unknown as Record<string, unknown>;
    expect(pointed).toEqual(
      expect.objectContaining({ kind, url: 'http://127.0.0.1:1/v1', headers: { 'x-team': 'a' }, retries: { attempts: 0 } }),
    );
    expect(JSON.stringify(pointed)).not.toMatch(/sk-real-key|10\.0\.0|maxConcurrent|urls/);
  }
  expect(findKind('llama-cpp')!.warmUp).toBeUndefined();
});

test('a config without a remote backend warms nothing (the bundled worker is never sent a synthetic generation)', async () => {
  const config = loadConfig({ backends: { local: { kind: 'llama-cpp', model: 'builtin' } }, routes: [{ model: '*', backend: 'local' }] });
  expect(await warmUp(config, 200)).toEqual({ requests: 0, refused: {}, ms: 0 });
});

describe('the standalone server', () => {
  let proxy: RunningServer | undefined;
  const lines: string[] = [];
  const start = (warmUpMs: number) => {
    lines.length = 0;
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({
      server: { warmUpMs },
      backends: { up: { kind: 'openai', url: upstream.url } },
      routes: [{ model: '*', backend: 'up' }],
    });
    return startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream: sink }) });
  };
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  test('says "starting" until the warm-up is over; then its metrics, its log and the backend show no synthetic request', async () => {
    proxy = await start(600);
    const seen: string[] = [];
    for (;;) {
      const health = await fetch(`${proxy.url}/healthz`);
      const { status } = (await health.json()) as { status: string };
      if (seen.at(-1) !== status) seen.push(status);
      if (health.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toEqual(['starting', 'ok']);
    const warmed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find(({ message }) => message === 'warmed up');
    expect(warmed).toEqual(expect.objectContaining({ level: 'info', requests: expect.any(Number) }));
    expect(warmed!.requests).toBeGreaterThan(0);
    expect(warmed!.ms).toBeGreaterThanOrEqual(600);
    expect(lines.filter((line) => line.includes('"message":"request"'))).toEqual([]);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^dialect_proxy_requests_total\{/m);
    expect(upstream.requests).toEqual([]);
  });

  test('warmUpMs: 0 turns it off', async () => {
    proxy = await start(0);
    await proxy.proxy.ready;
    expect(lines.filter((line) => line.includes('warmed up'))).toEqual([]);
  });
});
