/**
 * Gemini's callers may put their key in the URL (`?key=`): no log line, at any level, holds it, whatever
 * the request meets (served, streamed, counted, refused, an unknown URL).
 */
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const KEY = 'query-secret-key-1234567890';
const WRONG = 'wrong-secret-key-0987654321';
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });

describe('a key in the query string', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const lines: string[] = [];

  beforeAll(async () => {
    upstream = await startMockUpstream();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({
      server: { warmUpMs: 0, apiKeys: [KEY], logLevel: 'debug' },
      backends: { upstream: { kind: 'openai', speaks: ['chat'], url: upstream.url, apiKey: 'upstream-secret', retries: { attempts: 0 } } },
      routes: [{ model: 'gemini-*', backend: 'upstream' }],
    });
    proxy = await startServer(config, {
      port: 0,
      host: '127.0.0.1',
      logger: createLogger({ json: true, level: 'debug', stream: sink }),
    });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('never reaches a log line', async () => {
    const post = (path: string, sent = body) =>
      fetch(proxy.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent });
    upstream.reply({
      json: {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
      },
    });
    expect((await post(`/v1beta/models/gemini-x:generateContent?key=${KEY}`)).status).toBe(200);
    upstream.reply({ status: 500, json: { error: { message: 'upstream broke', type: 'server_error' } } });
    expect((await post(`/v1beta/models/gemini-x:streamGenerateContent?alt=sse&key=${KEY}`)).status).toBe(502);
    expect((await post(`/v1beta/models/gemini-x:countTokens?key=${KEY}`)).status).toBe(200);
    expect((await post(`/v1beta/models/gemini-x:generateContent?key=${WRONG}`)).status).toBe(401);
    expect((await post(`/v1beta/models/claude-x:generateContent?key=${KEY}`)).status).toBe(404);
    expect((await post(`/v1beta/models/gemini-x:generateContent?key=${KEY}`, '{"contents": 7}')).status).toBe(400);
    expect((await fetch(`${proxy.url}/v1beta/nothing-here?key=${KEY}`)).status).toBe(404);
    expect((await fetch(`${proxy.url}/v1beta/models?key=${KEY}`)).status).toBe(200);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.filter((line) => line.includes(KEY) || line.includes(WRONG))).toEqual([]);
  });

  test('the logger masks a key in any URL it is given', () => {
    const seen: string[] = [];
    const logger = createLogger({
      json: true,
      stream: new Writable({
        write(chunk, _encoding, done) {
          seen.push(String(chunk));
          done();
        },
      }),
    });
    logger.info(`fetched https://example.com/v1beta/models/x:generateContent?alt=sse&key=${KEY}`, { url: `/v1/models?key=${KEY}&x=1` });
    expect(seen.join('')).not.toContain(KEY);
    expect(seen.join('')).toContain('key=[redacted]');
  });
});
