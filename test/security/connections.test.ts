/**
 * Attack: slow and many connections. A body sent one byte a second held a
 * connection for 300 s (Node's default); nothing capped connections; a `model`
 * with a newline forged lines of the readable log. Now a body has
 * server.requestTimeoutMs (a 408 in the caller's dialect), headers have
 * server.headersTimeoutMs, and the readable log escapes control characters.
 * (Connection slots and pipelining: edge.test.ts.)
 */
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

const chatJson = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
};

/** Opens a raw connection; resolves with it once connected. */
function rawConnection(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What the server sends until it closes the connection, and when it closed (ms after the start). */
function untilClosed(socket: Socket, started: number): Promise<{ text: string; afterMs: number }> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, afterMs: Date.now() - started }));
  });
}

describe('slow senders, many connections, forged log lines', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const logged: string[] = [];
  beforeAll(async () => {
    upstream = await startMockUpstream({ json: chatJson });
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    const config = loadConfig({
      server: { requestTimeoutMs: 800, headersTimeoutMs: 800, maxConnections: 4 },
      backends: { up: { kind: 'openai', url: upstream.url, speaks: ['chat'] } },
      routes: [{ model: '*', backend: 'up' }],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: false, stream }) });
    await proxy.proxy.ready;
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test("a body trickled one byte at a time gets a 408 request_timeout in the caller's dialect, and the connection closes", async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    const socket = await rawConnection(proxy.url);
    const started = Date.now();
    const closed = untilClosed(socket, started);
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && sent < body.length) socket.write(body[sent++]);
    }, 100);
    const { text, afterMs } = await closed;
    clearInterval(trickle);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(text).toContain('"code":"request_timeout"');
    expect(text).toContain('server.requestTimeoutMs');
    expect(afterMs).toBeLessThan(3000);
  });

  test('headers that never finish: the connection is dropped after server.headersTimeoutMs', async () => {
    const socket = await rawConnection(proxy.url);
    const started = Date.now();
    const closed = untilClosed(socket, started);
    socket.write('POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
    }, 100);
    const { afterMs } = await closed;
    clearInterval(trickle);
    // Node checks the deadline each second: 800 ms plus at most one check.
    expect(afterMs).toBeLessThan(3500);
  });

  test('a model name with a newline cannot forge a line of the readable log', async () => {
    logged.length = 0;
    const forged = 'm\n2026-12-03T00:00:00.000Z info request requestId=forged status=200';
    await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: forged, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = logged
      .join('')
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.some((line) => line.includes('requestId=forged'))).toBe(true);
    expect(lines.every((line) => !line.startsWith('2026-12-03T00:00:00.000Z'))).toBe(true);
    expect(logged.join('')).toContain('\\u000a');
  });
});
