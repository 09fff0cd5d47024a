/**
 * The running proxy in front of a scriptable faulty upstream (fault-upstream.ts):
 * one test per behaviour of issue 9: timeouts per phase, retries (and none
 * after the first byte, none on a 4xx other than 429), concurrency limits,
 * fallbacks across kinds, `x-dialect-backend` / `x-dialect-tried`, SSE
 * keep-alive. Timeouts and back-offs are tens of milliseconds, so each test
 * takes well under a second.
 */
import OpenAI from 'openai';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { closedPortUrl, errorJson, startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { sseFrames } from '../helpers/mock-upstream.js';

const created = 1700000000;
const chatJson = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
};
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'm', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } })}\n\n`;
const chatSse = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Hel' }),
  chunk({ content: 'lo!' }),
  chunk({}, 'stop'),
  usageChunk,
  'data: [DONE]\n\n',
];

/** Fast phases and back-offs for every backend here; a test overrides what it is about. */
const FAST = {
  timeouts: { connectMs: 500, firstByteMs: 1000, idleMs: 1000, totalMs: 5000 },
  retries: { attempts: 2, initialDelayMs: 1, maxDelayMs: 50 },
};

const servers: RunningServer[] = [];
const upstreams: FaultUpstream[] = [];

async function proxy(
  backends: Record<string, Record<string, unknown>>,
  route: string | string[] = Object.keys(backends),
  server: Record<string, unknown> = {},
): Promise<RunningServer> {
  const config = loadConfig({
    server: { warmUpMs: 0, ...server }, // a server per test: the warm-up is test/e2e/warm-up.test.ts's
    backends: Object.fromEntries(Object.entries(backends).map(([name, settings]) => [name, { kind: 'openai', ...FAST, ...settings }])),
    routes: [{ model: '*', backend: route }],
  });
  const running = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
  await running.proxy.ready;
  servers.push(running);
  return running;
}

async function upstream(...script: Parameters<typeof startFaultUpstream>): Promise<FaultUpstream> {
  const started = await startFaultUpstream(...script);
  upstreams.push(started);
  return started;
}

function chat(server: RunningServer, body: Record<string, unknown> = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], ...body }),
    ...init,
  });
}

/** The error object of a JSON answer. */
async function errorOf(response: Response): Promise<{ message: string; type: string; param: string | null; code: string | null }> {
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return ((await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } }).error;
}

/** The text of a streamed chat answer's deltas, and its error frame if any. */
function readStream(text: string): { content: string; error?: { code: string | null; message: string }; done: boolean } {
  const frames = sseFrames(text);
  let content = '';
  let error: { code: string | null; message: string } | undefined;
  for (const frame of frames) {
    if (typeof frame !== 'object' || frame === null) continue;
    if ('error' in frame) error = (frame as { error: { code: string | null; message: string } }).error;
    for (const choice of (frame as { choices?: { delta?: { content?: string } }[] }).choices ?? []) content += choice.delta?.content ?? '';
  }
  return { content, error, done: frames.at(-1) === '[DONE]' };
}

const sdk = (server: RunningServer) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(upstreams.splice(0).map((server) => server.close()));
});

describe('timeouts per phase', () => {
  test('connect refused: 502 upstream_unreachable naming the host, after the retries', async () => {
    const url = await closedPortUrl();
    const server = await proxy({ dead: { url } });
    const response = await chat(server);
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toBe(`Could not reach the upstream backend ${new URL(url).host}: connection refused.`);
    expect(response.headers.get('x-dialect-backend')).toBe('dead');
  });

  test('connection closed before the headers: retried like a refused connection, the caller gets the 200', async () => {
    const up = await upstream([{ destroy: true }, { json: chatJson }]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(up.requests).toHaveLength(2);
  });

  test('stall before the headers: firstByteMs ends each try (retried), then 504 upstream_timeout', async () => {
    const up = await upstream([{ stall: true }]);
    const server = await proxy({
      up: { url: up.url, timeouts: { ...FAST.timeouts, firstByteMs: 100 }, retries: { ...FAST.retries, attempts: 1 } },
    });
    const started = Date.now();
    const response = await chat(server);
    expect(response.status).toBe(504);
    expect((await errorOf(response)).code).toBe('upstream_timeout');
    expect(up.requests).toHaveLength(2);
    expect(up.aborted).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  test('stall before the headers of a stream: no keep-alive before the upstream answers, the 504 is still an HTTP error', async () => {
    const up = await upstream([{ stall: true }]);
    const server = await proxy(
      { up: { url: up.url, timeouts: { ...FAST.timeouts, firstByteMs: 150 }, retries: { ...FAST.retries, attempts: 0 } } },
      undefined,
      { sseKeepAliveMs: 20 },
    );
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(504);
    expect((await errorOf(response)).code).toBe('upstream_timeout');
    expect(up.requests).toHaveLength(1);
  });

  test('stall between chunks: idleMs ends the stream with an upstream_timeout error frame, not retried', async () => {
    const up = await upstream([{ sse: [chunk({ role: 'assistant', content: 'Hel' }), { stall: true }] }]);
    const server = await proxy({ up: { url: up.url, timeouts: { ...FAST.timeouts, idleMs: 150 } } });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const { content, error, done } = readStream(await response.text());
    expect(content).toBe('Hel');
    expect(error?.code).toBe('upstream_timeout');
    expect(done).toBe(true);
    expect(up.requests).toHaveLength(1);
    expect(up.aborted).toHaveLength(1);
  });

  test('totalMs bounds a stream that never goes silent for idleMs', async () => {
    const paced = Array.from({ length: 20 }, () => [chunk({ content: '.' }), { waitMs: 30 }]).flat();
    const up = await upstream([{ sse: [chunk({ role: 'assistant', content: '' }), ...paced] }]);
    const server = await proxy({ up: { url: up.url, timeouts: { ...FAST.timeouts, idleMs: 200, totalMs: 250 } } });
    const response = await chat(server, { stream: true });
    const { content, error } = readStream(await response.text());
    expect(response.status).toBe(200);
    expect(error?.code).toBe('upstream_timeout');
    expect(content.length).toBeGreaterThan(0);
    expect(content.length).toBeLessThan(20);
    expect(up.requests).toHaveLength(1);
  });
});

describe('retries', () => {
  test('429 with Retry-After: 0, then 200: retried at once, the caller gets the 200', async () => {
    const up = await upstream([
      { status: 429, headers: { 'retry-after': '0' }, json: errorJson('slow down', { type: 'rate_limit_error' }) },
      { json: chatJson },
    ]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(((await response.json()) as typeof chatJson).choices[0].message.content).toBe('Hello there!');
    expect(up.requests).toHaveLength(2);
    expect(up.requests[1].body).toEqual(up.requests[0].body);
  });

  test('429 with retry-after-ms within maxDelayMs: waited as asked, then retried', async () => {
    const up = await upstream([{ status: 429, headers: { 'retry-after-ms': '120' }, json: errorJson('slow down') }, { json: chatJson }]);
    const server = await proxy({ up: { url: up.url, retries: { attempts: 1, initialDelayMs: 1, maxDelayMs: 500 } } });
    const started = Date.now();
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(up.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(Date.now() - started).toBeLessThan(900);
  });

  test('429 whose Retry-After exceeds maxDelayMs: no retry, the caller gets the 429 with its Retry-After', async () => {
    const up = await upstream([
      {
        status: 429,
        headers: { 'retry-after': '30' },
        json: errorJson('slow down', { type: 'rate_limit_error', code: 'rate_limit_exceeded' }),
      },
      { json: chatJson },
    ]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('30');
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' });
    expect(up.requests).toHaveLength(1);
  });

  test('503 then 200: retried, the caller gets the 200', async () => {
    const up = await upstream([{ status: 503, json: errorJson('overloaded', { type: 'server_error' }) }, { json: chatJson }]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(up.requests).toHaveLength(2);
  });

  test('503 then a stream: retried before the headers, the caller gets one clean stream', async () => {
    const up = await upstream([{ status: 503, json: errorJson('overloaded') }, { sse: chatSse }]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    expect(readStream(await response.text())).toEqual({ content: 'Hello!', error: undefined, done: true });
    expect(up.requests).toHaveLength(2);
  });

  test('500 every time, no fallback: 1 + attempts tries, then 502 upstream_error', async () => {
    const up = await upstream([{ status: 500, json: errorJson('boom', { type: 'server_error' }) }]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error).toMatchObject({
      type: 'upstream_error',
      code: 'upstream_error',
      message: 'The upstream backend failed with HTTP 500: boom',
    });
    expect(up.requests).toHaveLength(3);
  });

  test('500 every time: the fallback serves after the primary spent its retries', async () => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream([{ json: chatJson }]);
    const server = await proxy({ primary: { url: primary.url }, fallback: { url: fallback.url } });
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(((await response.json()) as typeof chatJson).choices[0].message.content).toBe('Hello there!');
    expect(primary.requests).toHaveLength(3);
    expect(fallback.requests).toHaveLength(1);
    expect(response.headers.get('x-dialect-backend')).toBe('fallback');
    expect(response.headers.get('x-dialect-tried')).toBe('primary, fallback');
  });

  test('a caller that leaves during the back-off stops the retries', async () => {
    const up = await upstream([{ status: 503, headers: { 'retry-after-ms': '300' }, json: errorJson('overloaded') }]);
    const server = await proxy({ up: { url: up.url, retries: { attempts: 5, initialDelayMs: 1, maxDelayMs: 1000 } } });
    const controller = new AbortController();
    const request = chat(server, {}, { signal: controller.signal });
    await up.received(1);
    setTimeout(() => controller.abort(), 50);
    await expect(request).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(up.requests).toHaveLength(1);
  });

  test('400: relayed at once, no retry and no fallback', async () => {
    const primary = await upstream([
      { status: 400, json: errorJson('temperature is too hot', { param: 'temperature', code: 'invalid_value' }) },
      { json: chatJson },
    ]);
    const fallback = await upstream([{ json: chatJson }]);
    const server = await proxy({ primary: { url: primary.url }, fallback: { url: fallback.url } });
    const response = await chat(server, { temperature: 1.5 });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      message: 'temperature is too hot',
      type: 'invalid_request_error',
      param: 'temperature',
      code: 'invalid_value',
    });
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
    expect(response.headers.get('x-dialect-backend')).toBe('primary');
    expect(response.headers.get('x-dialect-tried')).toBeNull();
  });

  test('death after the first byte of a stream: an upstream_stream_interrupted error frame, no retry, no fallback', async () => {
    const primary = await upstream([{ sse: [chunk({ role: 'assistant', content: 'Hel' }), { die: true }] }, { sse: chatSse }]);
    const fallback = await upstream([{ sse: chatSse }]);
    const server = await proxy({ primary: { url: primary.url }, fallback: { url: fallback.url } });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    const { content, error, done } = readStream(await response.text());
    expect(content).toBe('Hel');
    expect(error?.code).toBe('upstream_stream_interrupted');
    expect(error?.message).toMatch(/^The upstream backend 127\.0\.0\.1:\d+ broke off its stream: /);
    expect(done).toBe(true);
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
    expect(response.headers.get('x-dialect-backend')).toBe('primary');
  });

  test('death after the first byte of a stream: the openai SDK raises an APIError after the first delta', async () => {
    const up = await upstream([{ sse: [chunk({ role: 'assistant', content: 'Hel' }), { die: true }] }]);
    const server = await proxy({ up: { url: up.url } });
    const stream = await sdk(server).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let content = '';
    const failure = await (async () => {
      try {
        for await (const part of stream) content += part.choices[0]?.delta.content ?? '';
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(content).toBe('Hel');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).code).toBe('upstream_stream_interrupted');
    expect(up.requests).toHaveLength(1);
  });

  const diesMidBody = { headers: { 'content-type': 'application/json' }, sse: ['{"id":"chatcmpl-1","choices":[', { die: true } as const] };

  test('death after the headers of a non-streamed answer, mid-body: 502, not retried on the same backend', async () => {
    const up = await upstream([diesMidBody, { json: chatJson }]);
    const server = await proxy({ up: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(502);
    expect((await errorOf(response)).type).toBe('upstream_error');
    expect(up.requests).toHaveLength(1);
  });

  // The upstream was reached and answered: "could not reach" would mislead.
  test('death mid-body of a non-streamed answer says upstream_stream_interrupted, not upstream_unreachable', async () => {
    const up = await upstream([diesMidBody]);
    const server = await proxy({ up: { url: up.url } });
    const error = await errorOf(await chat(server));
    expect(error.code).toBe('upstream_stream_interrupted');
  });

  test('death after the headers of a stream, before any event: nothing reached the caller, so the fallback serves (no retry on the first)', async () => {
    const primary = await upstream([{ sse: [{ die: true }] }, { sse: chatSse }]);
    const fallback = await upstream([{ sse: chatSse }]);
    const server = await proxy({ primary: { url: primary.url }, fallback: { url: fallback.url } });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    expect(readStream(await response.text())).toEqual({ content: 'Hello!', error: undefined, done: true });
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(1);
    expect(response.headers.get('x-dialect-tried')).toBe('primary, fallback');
  });
});

describe('SSE keep-alive', () => {
  test('slow first token: keep-alive comments arrive once the upstream answered 200, then the events', async () => {
    const up = await upstream([{ sse: [{ waitMs: 250 }, ...chatSse] }]);
    const server = await proxy({ up: { url: up.url } }, undefined, { sseKeepAliveMs: 40 });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.startsWith(': keep-alive\n\n')).toBe(true);
    const beforeData = text.slice(0, text.indexOf('data:'));
    expect(beforeData.split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(3);
    expect(beforeData.replaceAll(': keep-alive\n\n', '')).toBe('');
    expect(readStream(text)).toEqual({ content: 'Hello!', error: undefined, done: true });
  });

  test('slow first token: the openai SDK stream still parses', async () => {
    const up = await upstream([{ sse: [{ waitMs: 250 }, ...chatSse] }]);
    const server = await proxy({ up: { url: up.url } }, undefined, { sseKeepAliveMs: 40 });
    const stream = await sdk(server).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let content = '';
    let finish: string | null = null;
    for await (const part of stream) {
      content += part.choices[0]?.delta.content ?? '';
      finish = part.choices[0]?.finish_reason ?? finish;
    }
    expect(content).toBe('Hello!');
    expect(finish).toBe('stop');
  });

  test('a pause between chunks gets keep-alive comments between the events', async () => {
    const up = await upstream([{ sse: [chatSse[0], chatSse[1], { waitMs: 200 }, ...chatSse.slice(2)] }]);
    const server = await proxy({ up: { url: up.url } }, undefined, { sseKeepAliveMs: 40 });
    const text = await (await chat(server, { stream: true })).text();
    expect(text.startsWith('data:')).toBe(true);
    const middle = text.slice(text.indexOf('Hel'), text.indexOf('lo!'));
    expect(middle.split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(2);
    expect(readStream(text)).toEqual({ content: 'Hello!', error: undefined, done: true });
  });
});

describe('concurrency limits', () => {
  test('maxConcurrent 1, queueLimit 0: a second request while one is in flight is a 429 backend_busy with Retry-After', async () => {
    const up = await upstream([{ delayMs: 300, json: chatJson }]);
    const server = await proxy({ up: { url: up.url, maxConcurrent: 1, queueLimit: 0 } });
    const first = chat(server);
    await up.received(1);
    const second = await chat(server);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await errorOf(second)).toMatchObject({ type: 'rate_limit_error', code: 'backend_busy' });
    expect((await first).status).toBe(200);
    expect(up.requests).toHaveLength(1);
  });

  test('a queued request whose client aborts leaves the queue and never reaches the upstream', async () => {
    const up = await upstream((request) =>
      (request.body as { messages: { content: string }[] }).messages[0].content === 'A'
        ? { delayMs: 300, json: chatJson }
        : { json: chatJson },
    );
    const server = await proxy({ up: { url: up.url, maxConcurrent: 1, queueLimit: 1 } });
    const a = chat(server, { messages: [{ role: 'user', content: 'A' }] });
    await up.received(1);
    const controller = new AbortController();
    const b = chat(server, { messages: [{ role: 'user', content: 'B' }] }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(b).rejects.toThrow();
    // B left the queue: C may wait in its place (queueLimit 1) instead of getting a 429.
    const c = chat(server, { messages: [{ role: 'user', content: 'C' }] });
    expect((await a).status).toBe(200);
    expect((await c).status).toBe(200);
    expect(up.requests.map((request) => (request.body as { messages: { content: string }[] }).messages[0].content)).toEqual(['A', 'C']);
    expect(up.peakOpen).toBe(1);
  });
});

describe('fallbacks across kinds', () => {
  test('openai primary failing with 500 on every try, fireworks fallback: each gets its own wire body', async () => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream([{ json: chatJson }]);
    const server = await proxy({ primary: { kind: 'openai', url: primary.url }, fallback: { kind: 'fireworks', url: fallback.url } });
    const response = await chat(server, { max_tokens: 5 });
    expect(response.status).toBe(200);
    expect(primary.requests).toHaveLength(3);
    for (const request of primary.requests) {
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 5 });
    }
    expect(fallback.requests).toHaveLength(1);
    expect(fallback.requests[0].path).toBe('/v1/chat/completions');
    expect(fallback.requests[0].body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 });
    expect(response.headers.get('x-dialect-backend')).toBe('fallback');
    expect(response.headers.get('x-dialect-tried')).toBe('primary, fallback');
  });

  test("upstreamModels: a fallback of another provider is sent its own model name, the primary the route's", async () => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream([{ json: chatJson }]);
    const config = loadConfig({
      backends: { primary: { kind: 'openai', url: primary.url, ...FAST }, fallback: { kind: 'fireworks', url: fallback.url, ...FAST } },
      routes: [
        {
          model: '*',
          backend: ['primary', 'fallback'],
          upstreamModel: 'gpt-4o',
          upstreamModels: { fallback: 'accounts/fireworks/models/llama' },
        },
      ],
    });
    const server = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    servers.push(server);
    await server.proxy.ready;
    expect((await chat(server)).status).toBe(200);
    expect(primary.requests.map(({ body }) => (body as { model: string }).model)).toEqual(['gpt-4o', 'gpt-4o', 'gpt-4o']);
    expect((fallback.requests[0].body as { model: string }).model).toBe('accounts/fireworks/models/llama');
  });

  test('a field the primary takes and the fallback refuses: the fallback answers its own 400 naming the field', async () => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream([{ json: chatJson }]);
    const server = await proxy({ primary: { kind: 'fireworks', url: primary.url }, fallback: { kind: 'openai', url: fallback.url } });
    const response = await chat(server, { top_k: 40 });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'invalid_request_error', param: 'top_k', code: 'unsupported_parameter' });
    expect(primary.requests).toHaveLength(3);
    expect((primary.requests[0].body as Record<string, unknown>).top_k).toBe(40);
    expect(fallback.requests).toHaveLength(0);
    expect(response.headers.get('x-dialect-backend')).toBe('fallback');
  });

  test('connection refused on the primary, a stream from the fallback', async () => {
    const fallback = await upstream([{ sse: chatSse }]);
    const server = await proxy({ dead: { url: await closedPortUrl() }, live: { kind: 'llama-server', url: fallback.url } });
    const response = await chat(server, { stream: true });
    expect(response.status).toBe(200);
    expect(readStream(await response.text())).toEqual({ content: 'Hello!', error: undefined, done: true });
    expect(fallback.requests).toHaveLength(1);
    expect(response.headers.get('x-dialect-backend')).toBe('live');
    expect(response.headers.get('x-dialect-tried')).toBe('dead, live');
  });
});

describe('x-dialect-backend and x-dialect-tried', () => {
  test('one backend, served: x-dialect-backend names it, no x-dialect-tried', async () => {
    const up = await upstream([{ json: chatJson }]);
    const server = await proxy({ solo: { url: up.url } });
    const response = await chat(server);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-dialect-backend')).toBe('solo');
    expect(response.headers.get('x-dialect-tried')).toBeNull();
  });

  test('every backend failing: the last failure answers, x-dialect-backend names the last backend', async () => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream([{ status: 503, json: errorJson('overloaded') }]);
    const server = await proxy({ primary: { url: primary.url }, fallback: { url: fallback.url } });
    const response = await chat(server);
    expect(response.status).toBe(502);
    expect((await errorOf(response)).message).toBe('The upstream backend failed with HTTP 503: overloaded');
    expect(primary.requests).toHaveLength(3);
    expect(fallback.requests).toHaveLength(3);
    expect(response.headers.get('x-dialect-backend')).toBe('fallback');
  });

  // A fallback whose plan refuses the request counts as tried too.
  test.each([
    ['every backend failing', { primary: 'openai', fallback: 'openai' }, {}, [{ status: 503, json: errorJson('overloaded') }]],
    ['the fallback refusing a field by its own rule', { primary: 'fireworks', fallback: 'openai' }, { top_k: 40 }, [{ json: chatJson }]],
  ] as const)('an error answer after a fallback names every backend tried: %s', async (_name, kinds, body, fallbackScript) => {
    const primary = await upstream([{ status: 500, json: errorJson('boom') }]);
    const fallback = await upstream(fallbackScript);
    const server = await proxy({
      primary: { kind: kinds.primary, url: primary.url },
      fallback: { kind: kinds.fallback, url: fallback.url },
    });
    const response = await chat(server, body);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('x-dialect-backend')).toBe('fallback');
    expect(response.headers.get('x-dialect-tried')).toBe('primary, fallback');
  });
});
