/**
 * An in-process upstream on 127.0.0.1 that records every request exactly and
 * answers from a script: JSON, raw SSE text (optionally in timed pieces), or
 * a status with an error body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type MockReply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; sse: string | string[]; delayMs?: number }
  | { hang: true };

export type MockScript = MockReply | ((request: RecordedRequest, index: number) => MockReply);

export interface MockUpstream {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose connection closed before the reply finished. */
  aborted: RecordedRequest[];
  reply(script: MockScript): void;
  close(): Promise<void>;
}

export async function startMockUpstream(initial?: MockScript): Promise<MockUpstream> {
  let script: MockScript | undefined = initial;
  const requests: RecordedRequest[] = [];
  const aborted: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    // A request cut off mid-body (the proxy stopped relaying it) is simply not recorded.
    handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await recordRequest(req);
    const index = requests.push(recorded) - 1;
    res.on('close', () => {
      if (!res.writableFinished) aborted.push(recorded);
    });
    const reply = typeof script === 'function' ? script(recorded, index) : script;
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no script"}}');
      return;
    }
    if ('hang' in reply) return;
    if ('json' in reply) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
    const pieces = Array.isArray(reply.sse) ? reply.sse : [reply.sse];
    for (const piece of pieces) {
      if (res.destroyed) return;
      res.write(piece);
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    aborted,
    reply(next) {
      script = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads a request whole: its body parsed as JSON where it is JSON, kept as text otherwise. */
export async function recordRequest(req: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // recorded as text
  }
  return { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
}

/** Splits an SSE transcript into frames' data payloads (JSON parsed where possible). */
export function sseFrames(text: string): unknown[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((frame) =>
      frame
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => {
      try {
        return JSON.parse(data);
      } catch {
        return data;
      }
    });
}
