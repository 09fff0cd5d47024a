/**
 * Attack: an upstream (or a model let run) streams a huge output to a
 * Responses caller. The closing events (`response.output_text.done`,
 * `content_part.done`, `output_item.done`, `response.completed`) each repeated
 * the whole text, all written in one packet: 100 MB from the upstream became
 * 501 MB to the caller and the proxy's RSS peaked at 1.4 GB (store: false; 1.5
 * GB with a store), for one request. Now the closing events repeat at most
 * limits.repeatedOutputBytes of an item (default 4 MiB), then a marker saying
 * how many bytes only the deltas carried; the deltas carry everything. Measured
 * with the proxy in its own process: 117 MB to the caller, peak RSS 187 MB.
 * Such a cut response is not kept by the store (the answer says store: false).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser } from 'eventsource-parser';
import { startProxyFor } from '../helpers/start-proxy.js';
import type { RunningServer } from '../../src/http/server.js';

const MiB = 1024 * 1024;
const DELTA = 16 * 1024;

/** A chat upstream that streams `bytes` of text ('a's) in deltas of 16 KiB, at the pace the proxy reads. */
async function floodingUpstream(bytes: number) {
  const frame = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const deltaFrame = Buffer.from(frame({ content: 'a'.repeat(DELTA) }, null));
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(frame({ role: 'assistant', content: '' }, null));
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += DELTA;
        if (!res.write(deltaFrame)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end(`${frame({}, 'stop')}data: [DONE]\n\n`);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The fields of the events read here. */
interface Event {
  type: string;
  delta?: string;
  text?: string;
  part?: { text: string };
  item?: { content: { text: string }[] };
  response?: { id: string; status: string; store: boolean; output: { content: { text: string }[] }[] };
}

interface Received {
  status: number;
  /** Bytes the caller read. */
  bytes: number;
  /** The deltas' text, by length. */
  deltaChars: number;
  /** Every other event, parsed (the closing ones are a few MiB each). */
  events: Event[];
  /** The growth of this process's RSS while it streamed (sampled), over its RSS before. */
  rssGrowth: number;
}

/** Streams one Responses request, counting what arrives without holding the deltas. */
async function stream(proxy: RunningServer, body: Record<string, unknown>): Promise<Received> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const sampler = setInterval(sample, 5);
  try {
    const response = await fetch(`${proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', input: 'Write forever.', stream: true, ...body }),
    });
    const received: Received = { status: response.status, bytes: 0, deltaChars: 0, events: [], rssGrowth: 0 };
    const parser = createParser({
      onEvent: ({ data }) => {
        const event = JSON.parse(data) as Event;
        if (event.type === 'response.output_text.delta') received.deltaChars += (event.delta as string).length;
        else received.events.push(event);
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      received.bytes += chunk.byteLength;
      parser.feed(decoder.decode(chunk, { stream: true }));
      sample();
    }
    received.rssGrowth = peak - before;
    return received;
  } finally {
    clearInterval(sampler);
  }
}

const named = (received: Received, type: string) => received.events.find((event) => event.type === type) as Required<Event>;
const MARKER =
  /\n\[dialect-proxy: (\d+) more bytes were streamed in the deltas and are not repeated here \(limits\.repeatedOutputBytes\)\]$/;

/** The text each closing event repeats. */
function closingTexts(received: Received): string[] {
  const completed = named(received, 'response.completed');
  return [
    named(received, 'response.output_text.done').text,
    named(received, 'response.content_part.done').part.text,
    named(received, 'response.output_item.done').item.content[0].text,
    completed.response.output[0].content[0].text,
  ];
}

describe('a huge upstream output to a Responses stream', () => {
  const upstreams: { close(): Promise<void> }[] = [];
  const proxies: RunningServer[] = [];
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const upstream of upstreams) await upstream.close();
  });
  const start = async (bytes: number, extra: Record<string, unknown> = {}) => {
    const upstream = await floodingUpstream(bytes);
    upstreams.push(upstream);
    const proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] }, extra);
    proxies.push(proxy);
    return proxy;
  };

  test('100 MB, store: false: every delta arrives; the closing events repeat 4 MiB and say how much more the deltas carried', async () => {
    const proxy = await start(100 * MiB);
    const received = await stream(proxy, { store: false });
    expect(received.status).toBe(200);
    expect(received.deltaChars).toBe(100 * MiB);
    for (const text of closingTexts(received)) {
      const [, omitted] = MARKER.exec(text) ?? [];
      const kept = text.length - (MARKER.exec(text)?.[0].length ?? 0);
      expect(Number(omitted) + kept).toBe(100 * MiB);
      expect(kept).toBeLessThanOrEqual(4 * MiB);
      expect(kept).toBeGreaterThan(4 * MiB - DELTA);
      expect(/^a*$/.test(text.slice(0, kept))).toBe(true);
    }
    expect(named(received, 'response.completed').response.status).toBe('completed');
    // Before: 501 MB to the caller (the text five times), and this process grew by 2 GB.
    expect(received.bytes).toBeLessThan(125 * MiB);
    expect(received.rssGrowth).toBeLessThan(500 * MiB);
  }, 120_000);

  test('100 MB, store: true: bounded the same, and the cut response is not kept', async () => {
    const proxy = await start(100 * MiB, { responses: { store: { kind: 'memory' } } });
    const received = await stream(proxy, { store: true });
    expect(received.deltaChars).toBe(100 * MiB);
    const { response } = named(received, 'response.completed');
    expect(MARKER.test(response.output[0].content[0].text)).toBe(true);
    // It would be a conversation the model did not have: the answer says so, and the store has no such id.
    expect(response.store).toBe(false);
    expect((await fetch(`${proxy.url}/v1/responses/${response.id}`)).status).toBe(404);
    expect(received.bytes).toBeLessThan(125 * MiB);
    expect(received.rssGrowth).toBeLessThan(500 * MiB);
  }, 120_000);

  test('an output within limits.repeatedOutputBytes is repeated whole, and kept', async () => {
    const proxy = await start(2 * MiB, { responses: { store: { kind: 'memory' } }, limits: { repeatedOutputBytes: 3 * MiB } });
    const received = await stream(proxy, { store: true });
    for (const text of closingTexts(received)) expect(text).toBe('a'.repeat(2 * MiB));
    const { response } = named(received, 'response.completed');
    expect(response.store).toBe(true);
    const kept = (await (await fetch(`${proxy.url}/v1/responses/${response.id}`)).json()) as Required<Event>['response'];
    expect(kept.output[0].content[0].text).toBe('a'.repeat(2 * MiB));
  }, 60_000);

  test('the bound is the setting: limits.repeatedOutputBytes of 64 KiB repeats 64 KiB', async () => {
    const proxy = await start(MiB, { limits: { repeatedOutputBytes: 64 * 1024 } });
    const received = await stream(proxy, { store: false });
    expect(received.deltaChars).toBe(MiB);
    for (const text of closingTexts(received))
      expect(text).toBe(
        `${'a'.repeat(64 * 1024)}\n[dialect-proxy: ${MiB - 64 * 1024} more bytes were streamed in the deltas and are not repeated here (limits.repeatedOutputBytes)]`,
      );
  }, 60_000);
});
