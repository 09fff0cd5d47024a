/** createDialectProxy mounted in an existing Express app that has its own routes and its own express.json. */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDialectProxy, type DialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

describe('createDialectProxy in a host app', () => {
  let upstream: MockUpstream;
  let server: Server;
  let proxy: DialectProxy;
  let base: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    });
    const app = express();
    app.use(express.json());
    app.get('/status', (_req, res) => {
      res.json({ app: 'up' });
    });
    app.post('/echo', (req, res) => {
      res.json({ echoed: req.body });
    });
    proxy = createDialectProxy(
      { backends: { up: { kind: 'openai', url: upstream.url } }, routes: [{ model: '*', backend: 'up' }] },
      { logger: createLogger({ silent: true }) },
    );
    app.use(proxy);
    app.use((_req, res) => {
      res.status(404).json({ app: 'not found' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await proxy.ready;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await proxy.close();
    await upstream.close();
  });

  test("the app's own routes still work", async () => {
    expect(await (await fetch(`${base}/status`)).json()).toEqual({ app: 'up' });
    const echoed = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echoed.json()).toEqual({ echoed: { a: 1 } });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  test('the proxy serves chat completions with the body the app already parsed', async () => {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0].message.content).toBe('ok');
  });

  test('health and models endpoints answer', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const models = (await (await fetch(`${base}/v1/models`)).json()) as { object: string };
    expect(models.object).toBe('list');
  });

  test('with a pass-through backend, a body the app already parsed is relayed intact', async () => {
    const app = express();
    app.use(express.json());
    const relaying = createDialectProxy(
      { backends: { up: { kind: 'openai', url: upstream.url } }, passthrough: 'up', routes: [{ model: '*', backend: 'up' }] },
      { logger: createLogger({ silent: true }) },
    );
    app.use(relaying);
    const other = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => other.once('listening', resolve));
    try {
      upstream.requests.length = 0;
      const response = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/moderations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input":"hello"}',
      });
      expect(response.status).toBe(200);
      expect(upstream.requests[0]).toMatchObject({ path: '/v1/moderations', body: { input: 'hello' } });
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
      await relaying.close();
    }
  });

  test('an untranslated /v1 path without a pass-through backend falls through to the app', async () => {
    const response = await fetch(`${base}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ app: 'not found' });
  });
});

describe('a proxy whose backends fail to start', () => {
  test('healthz says so, and requests get a 503 in OpenAI shape', async () => {
    const app = express();
    const broken = createDialectProxy(
      { backends: { local: { kind: 'llama-cpp', model: '/nonexistent/model.gguf' } }, routes: [{ model: '*', backend: 'local' }] },
      { logger: createLogger({ silent: true }) },
    );
    app.use(broken);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(broken.ready).rejects.toThrow();
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'failed', error: expect.stringContaining('model.gguf') });
      const response = await fetch(`${base}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":"m","prompt":"x"}',
      });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('backend_unavailable');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
