/**
 * UpstreamExchange, the dispatch handler the remote adapters read answers
 * through, against a node:http server on 127.0.0.1: a reader that falls behind
 * pauses the upstream, text split inside a character, and aborts before and
 * during the answer.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { UpstreamExchange } from '../../../adapters/transport/upstream-exchange.js';

const MB = 1024 * 1024;

describe('UpstreamExchange', () => {
  let server: Server;
  let origin: string;
  let handle: (res: ServerResponse) => void;
  const agent = new Agent();
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      handle(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await agent.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function send(signal?: AbortSignal): UpstreamExchange {
    const exchange = new UpstreamExchange(signal);
    agent.dispatch({ origin, path: '/', method: 'POST', body: '{}' }, exchange);
    return exchange;
  }

  test('a reader that falls behind pauses the upstream; what it then reads is all there', async () => {
    const total = 64 * MB;
    const piece = Buffer.alloc(MB, 'x');
    let written = 0;
    handle = (res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const more = () => {
        while (written < total) {
          written += piece.length;
          if (!res.write(piece)) return res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    const exchange = send();
    expect((await exchange.head).status).toBe(200);
    const iterator = exchange[Symbol.asyncIterator]();
    let read = (await iterator.next()).value!.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Unpaused, undici would have taken all 64 MB off the socket by now; paused, the sender waits at what the socket buffers hold.
    expect(written).toBeLessThan(total / 2);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) read += next.value.length;
    expect(read).toBe(total);
    expect(exchange.readableEnded).toBe(true);
  });

  test('text() decodes a character split between two packets', async () => {
    const bytes = Buffer.from('{"text":"héllo €"}');
    const cut = bytes.indexOf(0xe2) + 1; // inside the euro sign's three bytes
    handle = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 20);
    };
    const exchange = send();
    expect((await exchange.head).headers['content-type']).toBe('application/json');
    expect(await exchange.text()).toBe('{"text":"héllo €"}');
  });

  test('a signal aborted before the start rejects the head with its reason', async () => {
    handle = (res) => res.end('{}');
    const reason = new Error('gone before it began');
    await expect(send(AbortSignal.abort(reason)).head).rejects.toBe(reason);
  });

  test('a signal aborted while the body is read rejects the waiting reader with its reason and closes the request', async () => {
    let closed = false;
    handle = (res) => {
      res.writeHead(200);
      res.write('first');
      res.on('close', () => {
        closed = true;
      });
    };
    const controller = new AbortController();
    const exchange = send(controller.signal);
    await exchange.head;
    const iterator = exchange[Symbol.asyncIterator]();
    expect(String((await iterator.next()).value)).toBe('first');
    const waiting = iterator.next();
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(true);
  });
});
