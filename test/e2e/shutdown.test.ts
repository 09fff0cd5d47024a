/**
 * Graceful shutdown: a real proxy process told SIGTERM during a slow stream refuses new
 * connections, lets the stream finish (or ends it with an error frame once the grace is over)
 * and exits 0; a second signal exits at once. In process: the drain itself, and connections.
 */
import { connect, type Socket } from 'node:net';
import type { RunningServer } from '../../src/http/server.js';
import { sseFrames, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { spawnProxy, type ProxyProcess } from '../helpers/proxy-process.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
/** `count` chunks `delayMs` apart, then the end. */
const slowStream = (count: number, delayMs: number) => ({
  sse: [...Array.from({ length: count }, (_, i) => chunk(`w${i} `)), chunk('', 'stop'), 'data: [DONE]\n\n'],
  delayMs,
});
const streamBody = JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], stream: true });
/** The process binds an ephemeral port (0); spawnProxy reads the bound one from its "listening on" line. */
const configFor = (upstream: MockUpstream, server: Record<string, unknown> = {}) => ({
  server: { host: '127.0.0.1', port: 0, logLevel: 'info', ...server },
  backends: { up: { kind: 'openai', url: upstream.url } },
  routes: [{ model: '*', backend: 'up' }],
});

/** A raw connection, so the test decides what travels on it and sees when the server closes it. */
class RawConnection {
  text = '';
  readonly closed: Promise<void>;
  private readonly socket: Socket;
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding('utf8').on('data', (text: string) => {
      this.text += text;
      this.waiters = this.waiters.filter((waiter) => !(waiter.test(this.text) && (waiter.resolve(), true)));
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(method: string, path: string, body?: string): void {
    const headers = [
      `${method} ${path} HTTP/1.1`,
      'host: proxy',
      'content-type: application/json',
      ...(body ? [`content-length: ${Buffer.byteLength(body)}`] : []),
    ];
    this.socket.write(`${headers.join('\r\n')}\r\n\r\n${body ?? ''}`);
  }

  until(test: (text: string) => boolean): Promise<void> {
    return test(this.text) ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  end(): void {
    this.socket.destroy();
  }
}

/** The responses in a raw transcript: status, headers, body (de-chunked). */
function responses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    rest = rest.slice(headEnd + 4);
    let body = '';
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const sizeEnd = rest.indexOf('\r\n');
        const size = parseInt(rest.slice(0, sizeEnd), 16);
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers['content-length'] ?? 0);
      body = rest.slice(0, length);
      rest = rest.slice(length);
    }
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
  }
  return out;
}

const connectionRefused = (url: string) =>
  fetch(`${url}/healthz`).then(
    () => 'connected',
    (error: { cause?: { code?: string } }) => error.cause?.code,
  );

describe('shutdown of the proxy process', () => {
  let upstream: MockUpstream;
  let proxy: ProxyProcess | undefined;

  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  afterEach(() => {
    if (proxy?.child.exitCode === null) proxy.child.kill('SIGKILL');
    proxy = undefined;
  });
  afterAll(async () => {
    await upstream.close();
  });

  test('SIGTERM during a slow stream: the stream completes, new connections are refused, /healthz says draining, exit 0', async () => {
    upstream.reply(slowStream(8, 100));
    proxy = await spawnProxy(configFor(upstream));
    const stream = new RawConnection(proxy.url);
    stream.send('POST', '/v1/chat/completions', streamBody);
    await stream.until((text) => text.includes('w0'));

    proxy.child.kill('SIGTERM');
    await proxy.waitForLine(/draining: new connections refused/);
    expect(await connectionRefused(proxy.url)).toBe('ECONNREFUSED');
    // The stream's connection is still open: a request sent on it now is answered after the stream, as draining.
    stream.send('GET', '/healthz');
    await stream.closed;

    const [streamed, health] = responses(stream.text);
    expect(streamed.status).toBe(200);
    const frames = sseFrames(streamed.body);
    expect(frames.filter((frame) => JSON.stringify(frame).includes('"w'))).toHaveLength(8);
    expect(frames[frames.length - 1]).toBe('[DONE]');
    expect(JSON.stringify(frames)).not.toContain('shutting_down');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toEqual({ status: 'draining' });
    expect(health.headers.connection).toBe('close');

    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    const log = proxy.lines.join('\n');
    expect(log).toContain('SIGTERM: shutting down');
    expect(log).toContain('requests in flight finished');
    expect(log).toContain('backends closed');
    expect(log).toContain('stopped');
  });

  test('with a short grace, a stream still running ends with a shutting_down error frame and [DONE], exit 0', async () => {
    upstream.reply(slowStream(40, 100));
    proxy = await spawnProxy(configFor(upstream, { shutdownGraceMs: 200 }));
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamBody,
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    const sent = Date.now();
    proxy.child.kill('SIGTERM');
    let text = new TextDecoder().decode(first.value);
    for (let next = await reader.read(); !next.done; next = await reader.read()) text += new TextDecoder().decode(next.value);

    expect(Date.now() - sent).toBeLessThan(2000);
    const frames = sseFrames(text);
    expect(frames.filter((frame) => JSON.stringify(frame).includes('"w')).length).toBeLessThan(40);
    expect(frames[frames.length - 2]).toEqual({ error: expect.objectContaining({ code: 'shutting_down', type: 'server_error' }) });
    expect(frames[frames.length - 1]).toBe('[DONE]');
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.lines.join('\n')).toContain('grace over: ended 1 request in flight');
  });

  test('a second signal exits at once, with 128 + its number', async () => {
    upstream.reply({ hang: true });
    proxy = await spawnProxy(configFor(upstream)); // the default grace: 30 s
    const pending = fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamBody,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the request reaches the upstream
    proxy.child.kill('SIGTERM');
    await proxy.waitForLine(/draining/);
    const sent = Date.now();
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - sent).toBeLessThan(1000);
    expect(proxy.lines.join('\n')).toContain('SIGINT again: exiting now');
    await pending;
  });
});

describe('drain and shutdown in process', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeEach(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai' });
  });
  afterEach(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('drain: /healthz is 503 draining, new requests a 503 shutting_down, the stream in flight finishes', async () => {
    upstream.reply(slowStream(5, 60));
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamBody,
    });
    const streamed = response.text();
    const drained = proxy.proxy.drain(5000);

    const health = await fetch(`${proxy.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'draining' });
    const refused = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamBody,
    });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('shutting_down');

    expect(await drained).toEqual({ ended: 0 });
    expect(proxy.proxy.drain(5000)).toBe(proxy.proxy.drain(1)); // one drain
    const frames = sseFrames(await streamed);
    expect(frames.filter((frame) => JSON.stringify(frame).includes('"w'))).toHaveLength(5);
    expect(frames[frames.length - 1]).toBe('[DONE]');
  });

  test('drain past its grace ends a non-streamed request with a 503 shutting_down', async () => {
    upstream.reply({ hang: true });
    const answer = fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await proxy.proxy.drain(100)).toEqual({ ended: 1 });
    const response = await answer;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('shutting_down');
  });

  test('shutdown: an idle keep-alive connection is closed at once, the busy one once its stream has finished', async () => {
    upstream.reply({ json: { status: 'unused' } });
    const idle = new RawConnection(proxy.url);
    idle.send('GET', '/healthz');
    await idle.until((text) => text.includes('"ok"'));
    upstream.reply(slowStream(4, 80));
    const busy = new RawConnection(proxy.url);
    busy.send('POST', '/v1/chat/completions', streamBody);
    await busy.until((text) => text.includes('w0'));

    const stopped = proxy.shutdown();
    await idle.closed;
    expect(await connectionRefused(proxy.url)).toBe('ECONNREFUSED');
    await busy.closed; // closed by the server after the stream, without the client asking
    expect(sseFrames(responses(busy.text)[0].body).pop()).toBe('[DONE]');
    await stopped;
    expect(proxy.shutdown()).toBe(stopped);
    idle.end();
    busy.end();
  });
});
