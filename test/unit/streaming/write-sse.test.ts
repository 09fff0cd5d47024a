import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseWriter } from '../../../src/streaming/write-sse.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Serves one SSE response of `chunks` written as the pipeline writes them (a frame each, back-pressure, [DONE]); returns the body the client read. */
async function serve(chunks: () => AsyncIterable<unknown>, clientPauseMs: number): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    void (async () => {
      const writer = new SseWriter(res);
      for await (const chunk of chunks()) {
        writer.write(`data: ${JSON.stringify(chunk)}\n\n`);
        const wait = writer.drained();
        if (wait) await wait;
      }
      writer.end('data: [DONE]\n\n');
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port }, (res) => {
          const parts: Buffer[] = [];
          res.pause(); // a slow client: the first writes fill the socket's buffers
          setTimeout(() => res.resume(), clientPauseMs);
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve(Buffer.concat(parts).toString()));
          res.on('error', reject);
        })
        .on('error', reject);
      setTimeout(() => reject(new Error('the stream did not finish')), 5000).unref();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('SseWriter', () => {
  it('joins frames produced together and ends with [DONE]', async () => {
    async function* chunks() {
      yield { a: 1 };
      yield { b: 2 };
    }
    expect(await serve(chunks, 0)).toBe('data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n');
  });

  it('finishes when the socket drained while it waited for the next chunk (back-pressure never hangs)', async () => {
    const big = 'x'.repeat(256 * 1024);
    async function* chunks() {
      for (let i = 0; i < 6; i++) {
        // A large write fills the socket; the client catches up (drain) while we wait for the next,
        // small chunk, whose write then needs no drain of its own.
        yield i % 2 === 0 ? { i, big } : { i };
        await sleep(60);
      }
    }
    const body = await serve(chunks, 30);
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(body.split('\n\n').filter((frame) => frame.startsWith('data: {')).length).toBe(6);
  }, 10_000);

  it("text queued by one packet's promise steps leaves in one write; with the end, in the end's write", async () => {
    const calls: string[] = [];
    const fake = {
      destroyed: false,
      writableEnded: false,
      writableNeedDrain: false,
      write: (text: string) => calls.push(`write ${text}`),
      end: (text: string) => calls.push(`end ${text}`),
    };
    const response = fake as unknown as http.ServerResponse;
    const writer = new SseWriter(response);
    writer.write('a');
    await Promise.resolve(); // a microtask later (another event of the same packet): still the same write
    writer.write('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['write ab']);
    // The last frames and the end a few promise steps apart (the upstream's end read with its last packet): one write, the end's.
    writer.write('c');
    await Promise.resolve();
    await Promise.resolve();
    writer.end('[DONE]');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['write ab', 'end c[DONE]']);
  });
});
