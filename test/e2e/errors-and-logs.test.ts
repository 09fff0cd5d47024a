/** Bad input gets a clear error in the caller's dialect; logs never carry secrets. */
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { sseFrames, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

describe('errors and logs', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const lines: string[] = [];
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(proxy.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer proxy-key-123', ...headers },
      body,
    });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ json: true, stream: sink });
    const config = loadConfig({
      server: { apiKeys: ['proxy-key-123'], maxBodyBytes: 2048 },
      backends: { up: { kind: 'openai', url: upstream.url, apiKey: 'sk-upstream-secret-456' } },
      routes: [{ model: 'gpt-*', backend: 'up' }],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('malformed JSON is a 400 naming the problem', async () => {
    const response = await post('/v1/chat/completions', '{"model": ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  test('an oversized body is a 413', async () => {
    const response = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'x'.repeat(5000) }] }),
    );
    expect(response.status).toBe(413);
  });

  test('a missing or wrong key is a 401', async () => {
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect((await post('/v1/completions', '{}', { authorization: 'Bearer nope' })).status).toBe(401);
  });

  test('GET /v1/models needs the key like the other /v1 routes; /healthz and /metrics stay open', async () => {
    const without = await fetch(`${proxy.url}/v1/models`);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect(await without.json()).toEqual({
      error: { message: expect.stringContaining('Missing API key'), type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });
    expect((await fetch(`${proxy.url}/v1/models`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const keyed = await fetch(`${proxy.url}/v1/models`, { headers: { authorization: 'Bearer proxy-key-123' } });
    expect(keyed.status).toBe(200);
    expect(await keyed.json()).toEqual({ object: 'list', data: [] });
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${proxy.url}/metrics`)).status).toBe(200);
  });

  test('a model no route serves is a 404 with param model', async () => {
    const response = await post('/v1/chat/completions', JSON.stringify({ model: 'llama-x', messages: [{ role: 'user', content: 'hi' }] }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: expect.stringContaining('llama-x'), type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
    });
  });

  test('a missing required field on completions is a 422 with OpenAI error and Fireworks detail', async () => {
    const response = await post('/v1/completions', JSON.stringify({ model: 'gpt-x' }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { param: string }; detail: { loc: unknown[] }[] };
    expect(body.error.param).toBe('prompt');
    expect(body.detail[0].loc).toEqual(['body', 'prompt']);
  });

  test('the wrong method is a 405', async () => {
    expect((await fetch(`${proxy.url}/v1/chat/completions`)).status).toBe(405);
  });

  test('an unknown path on the standalone server is a 404 in OpenAI shape', async () => {
    const response = await fetch(`${proxy.url}/v1/embeddings`, { method: 'POST', headers: { authorization: 'Bearer proxy-key-123' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_url');
  });

  test('an upstream failure after the stream started arrives as one error frame, then [DONE]', async () => {
    const chunk = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`;
    upstream.reply({ sse: [chunk, 'data: {"error": {"message": "model crashed", "type": "server_error"}}\n\n'] });
    const response = await post(
      '/v1/chat/completions',
      JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    const frames = sseFrames(text);
    expect(frames[frames.length - 2]).toEqual({ error: expect.objectContaining({ message: expect.stringContaining('model crashed') }) });
    expect(frames[frames.length - 1]).toBe('[DONE]');
  });

  test('one log line per request, and no key or authorization header in any of them', async () => {
    upstream.reply({
      json: {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    });
    const before = lines.length;
    await post('/v1/chat/completions', JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }), {
      'x-request-id': 'req-log-1',
    });
    const line = lines
      .slice(before)
      .map((text) => JSON.parse(text))
      .find((entry) => entry.requestId === 'req-log-1');
    expect(line).toMatchObject({
      message: 'request',
      dialect: 'openai-chat',
      model: 'gpt-x',
      backend: 'up',
      status: 200,
      promptTokens: 1,
      completionTokens: 1,
    });
    expect(typeof line.latencyMs).toBe('number');
    const all = lines.join('\n');
    expect(all).not.toContain('proxy-key-123');
    expect(all).not.toContain('sk-upstream-secret-456');
  });
});
