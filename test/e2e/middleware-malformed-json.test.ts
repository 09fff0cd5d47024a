/**
 * README, "Ways to use it": what a host's express.json() does with a body that
 * is not JSON, in Express 5 and 4. Mounted before the proxy, it answers with
 * Express's HTML error page; the proxy mounted first answers in the caller's
 * dialect; so does a host error handler for body-parser's parse failures.
 */
import express from 'express';
import express4 from 'express4';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';

type MakeApp = typeof express;
type App = ReturnType<MakeApp>;
const MAJORS: [string, MakeApp][] = [
  ['5', express],
  ['4', express4 as unknown as MakeApp],
];
const config = {
  backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1', speaks: ['chat'] } },
  routes: [{ model: '*', backend: 'up' }],
};
const MALFORMED = '{"model": "m", "messages": [';

async function post(wire: (app: App, make: MakeApp) => void, make: MakeApp, path: string) {
  const app = make();
  wire(app, make);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: MALFORMED,
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const proxy = () => createDialectProxy(config, { logger: createLogger({ level: 'error' }) });

// Express's default handler logs the parser's stack unless NODE_ENV is test (as Jest sets it).
describe.each(MAJORS)('Express %s', (_major, make) => {
  test("express.json() before the proxy: Express's HTML error page, which no SDK reads as an API error", async () => {
    const answer = await post((app, mk) => app.use(mk.json(), proxy()), make, '/v1/chat/completions');
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.body).toContain('SyntaxError');
  });

  test.each([
    ['/v1/chat/completions', { error: { code: 'invalid_json', type: 'invalid_request_error' } }],
    ['/v1/messages', { type: 'error', error: { type: 'invalid_request_error' } }],
  ])('the proxy before express.json(): %s answers in its dialect', async (path, shape) => {
    const answer = await post((app, mk) => app.use(proxy(), mk.json()), make, path);
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject(shape);
  });

  test('express.json() first, with an error handler for its parse failures: JSON', async () => {
    const answer = await post(
      (app, mk) => {
        app.use(mk.json(), proxy());
        app.use((error: { type?: string; message: string }, _req: unknown, res: express.Response, next: (error: unknown) => void) => {
          if (error.type !== 'entity.parse.failed') return next(error);
          res.status(400).json({ error: { message: error.message, type: 'invalid_request_error', param: null, code: 'invalid_json' } });
        });
      },
      make,
      '/v1/chat/completions',
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'invalid_json' } });
  });
});
