/**
 * Attack: an upstream that echoes request headers. Masking covered a backend's
 * `apiKey` in HTTP errors only; a `headers:` value (an organisation key, a
 * gateway token) echoed by the upstream reached the caller's answer and the log,
 * and so did the apiKey when echoed inside a 200 (an error frame of a stream, a
 * JSON `{error}`). Every configured secret is now masked wherever an upstream's words go.
 */
import { PassThrough } from 'node:stream';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';

const HEADER_SECRET = 'hdr-secret-0123456789abcdef';
const API_KEY = 'sk-upstream-0123456789';
const echo = (request: RecordedRequest) => `you sent ${JSON.stringify(request.headers)}`;

const replies = {
  'an HTTP 400': (request: RecordedRequest) => ({
    status: 400,
    json: { error: { message: echo(request), type: 'invalid_request_error', param: null, code: null } },
  }),
  'an HTTP 500': (request: RecordedRequest) => ({ status: 500, json: { error: { message: echo(request) } } }),
  'a 422 detail list': (request: RecordedRequest) => ({
    status: 422,
    json: { detail: [{ loc: ['body', 'x'], msg: echo(request), type: 'value_error' }] },
  }),
  'a 200 whose body is {error}': (request: RecordedRequest) => ({ json: { error: { message: echo(request) } } }),
  // To a request that is not streamed, the same words come back as a 200 {error}.
  'an error frame in a stream': (request: RecordedRequest) =>
    (request.body as { stream?: boolean }).stream
      ? { sse: `data: ${JSON.stringify({ error: { message: echo(request), code: 500 } })}\n\n` }
      : { json: { error: { message: echo(request) } } },
};

describe('configured secrets never reach a caller or a log through an upstream', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const logged: string[] = [];
  beforeAll(async () => {
    upstream = await startMockUpstream({ json: {} });
    const stream = new PassThrough();
    stream.on('data', (line: Buffer) => logged.push(line.toString()));
    const config = loadConfig({
      backends: {
        up: {
          kind: 'openai',
          url: upstream.url,
          apiKey: API_KEY,
          speaks: ['chat'],
          headers: { 'X-Org-Token': HEADER_SECRET, 'X-Short': 'v1' },
          retries: { attempts: 0 },
        },
      },
      routes: [{ model: '*', backend: 'up' }],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream, level: 'debug' }) });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test.each(Object.entries(replies))('%s', async (_name, reply) => {
    upstream.reply(reply);
    logged.length = 0;
    for (const stream of [false, true]) {
      const response = await fetch(`${proxy.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream }),
      });
      const text = await response.text();
      // The upstream did echo them (the attack is real), and the answer carries the rest of its words.
      expect(JSON.stringify(upstream.requests.at(-1)?.headers)).toContain(HEADER_SECRET);
      expect(text).toContain('[redacted]');
      expect(text).not.toContain(HEADER_SECRET);
      expect(text).not.toContain(API_KEY);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.join('')).not.toContain(HEADER_SECRET);
    expect(logged.join('')).not.toContain(API_KEY);
  });
});
