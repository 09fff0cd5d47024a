/**
 * createDialectProxy in an Express 5 app and in an Express 4 app (the `express4`
 * dev dependency): mounted before or after the host's routes, with or without
 * the host's own express.json(), and behind other parsers that fill req.body.
 */
import express from 'express';
import express4 from 'express4';
import { createRequire } from 'node:module';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDialectProxy, type DialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const require = createRequire(import.meta.url);
// Both majors take the same calls here; one type keeps the table simple.
type MakeApp = typeof express;
const MAJORS: [string, MakeApp][] = [
  [require('express/package.json').version as string, express],
  [require('express4/package.json').version as string, express4 as unknown as MakeApp],
];

type App = ReturnType<MakeApp>;

/** A host parser of its own: reads the stream and leaves the JSON in req.body, as many do. */
function ownJsonParser(req: IncomingMessage & { body?: unknown }, _res: unknown, next: () => void): void {
  if (!/json/.test(req.headers['content-type'] ?? '')) {
    next();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    req.body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    next();
  });
}

interface Host {
  name: string;
  /** Wires the host app around the proxy. */
  wire(app: App, proxy: DialectProxy, make: MakeApp): void;
  /** The host's /echo sees the JSON it was sent. */
  echoes: boolean;
}

const hostRoutes = (app: App) => {
  app.get('/status', (_req, res) => {
    res.json({ app: 'up' });
  });
  app.post('/echo', (req, res) => {
    res.json({ echoed: req.body ?? null });
  });
};
const hostNotFound = (app: App) =>
  app.use((_req, res) => {
    res.status(404).json({ app: 'not found' });
  });

const HOSTS: Host[] = [
  {
    name: 'after the host routes and its express.json()',
    wire: (app, proxy, make) => {
      app.use(make.json());
      hostRoutes(app);
      app.use(proxy);
      hostNotFound(app);
    },
    echoes: true,
  },
  {
    name: 'before the host routes and its express.json()',
    wire: (app, proxy, make) => {
      app.use(proxy);
      app.use(make.json());
      hostRoutes(app);
      hostNotFound(app);
    },
    echoes: true,
  },
  {
    name: 'in a host without a body parser',
    wire: (app, proxy) => {
      hostRoutes(app);
      app.use(proxy);
      hostNotFound(app);
    },
    echoes: false,
  },
  {
    name: "after a parser of the host's own that sets req.body",
    wire: (app, proxy) => {
      app.use(ownJsonParser);
      hostRoutes(app);
      app.use(proxy);
      hostNotFound(app);
    },
    echoes: true,
  },
  {
    name: 'after express.text() for every type (req.body is the text)',
    wire: (app, proxy, make) => {
      app.use(make.text({ type: '*/*' }));
      app.use(proxy);
      hostRoutes(app);
      hostNotFound(app);
    },
    // The text goes upstream as it was read (fixRequestBody alone would JSON-encode the string again).
    echoes: false,
  },
];

async function listen(app: App): Promise<{ server: Server; base: string }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

let upstream: MockUpstream;
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
});
afterAll(() => upstream.close());

const proxyFor = () =>
  createDialectProxy(
    { backends: { up: { kind: 'openai', url: upstream.url, models: ['m'] } }, passthrough: 'up', routes: [{ model: '*', backend: 'up' }] },
    { logger: createLogger({ silent: true }) },
  );

test('the two majors are installed', () => {
  expect(MAJORS.map(([version]) => version.split('.')[0])).toEqual(['5', '4']);
});

describe.each(MAJORS)('Express %s', (_version, make) => {
  describe.each(HOSTS)('the proxy mounted $name', ({ wire, echoes }) => {
    let proxy: DialectProxy;
    let server: Server;
    let base: string;
    beforeAll(async () => {
      const app = make();
      proxy = proxyFor();
      wire(app, proxy, make);
      ({ server, base } = await listen(app));
      await proxy.ready;
    });
    afterAll(async () => {
      await stop(server);
      await proxy.close();
    });

    test('serves chat completions with the body the caller sent', async () => {
      upstream.requests.length = 0;
      const response = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content).toBe('ok');
      expect(upstream.requests[0]).toMatchObject({
        path: '/v1/chat/completions',
        body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      });
    });

    test('answers a malformed body with a 400 in OpenAI shape', async () => {
      const response = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{"model": ',
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    });

    test('lists models, answers a GET on a translated path with a 405, leaves the host its routes', async () => {
      const models = (await (await fetch(`${base}/v1/models`)).json()) as { data: { id: string }[] };
      expect(models.data.map(({ id }) => id)).toEqual(['m']);
      expect((await fetch(`${base}/v1/chat/completions`)).status).toBe(405);
      expect(await (await fetch(`${base}/status`)).json()).toEqual({ app: 'up' });
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
      const echoed = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(echoed.status).toBe(200);
      if (echoes) expect(await echoed.json()).toEqual({ echoed: { a: 1 } });
    });

    test('relays a pass-through request with its body intact', async () => {
      upstream.requests.length = 0;
      const response = await fetch(`${base}/v1/moderations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"input":"hello"}',
      });
      expect(response.status).toBe(200);
      expect(upstream.requests[0]).toMatchObject({ path: '/v1/moderations', body: { input: 'hello' } });
    });
  });

  test('a host that read the body and kept nothing gets a 500 saying so, in OpenAI shape', async () => {
    const app = make();
    app.use((req, _res, next) => {
      req.resume();
      req.on('end', () => next());
    });
    const proxy = proxyFor();
    app.use(proxy);
    const { server, base } = await listen(app);
    try {
      await proxy.ready;
      const response = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":"m","messages":[]}',
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: { message: expect.stringContaining('req.body'), type: 'server_error', param: null, code: 'body_unavailable' },
      });
    } finally {
      await stop(server);
      await proxy.close();
    }
  });
});
