/**
 * A scriptable faulty upstream on 127.0.0.1, for the fault tests: request i
 * gets step i of the script (the last step repeats once the script runs out),
 * and every request is recorded exactly, with whether its connection was
 * closed before the reply finished.
 *
 * A step answers JSON or a body of pieces (SSE text, waits, a stall, a death),
 * after an optional delay before the headers; or it never answers (`stall`),
 * or it closes the connection without a word (`destroy`). `closedPortUrl()`
 * gives a URL where nothing listens (connection refused).
 *
 * @example
 * const upstream = await startFaultUpstream([
 *   { status: 429, headers: { 'retry-after': '0' }, json: errorJson('slow down') },
 *   { json: completion },
 * ]);
 * const stream = await startFaultUpstream([{ sse: [chunk('Hel'), { waitMs: 200 }, chunk('lo'), { die: true }] }]);
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from './mock-upstream.js';

/** A piece of a reply's body, in order: text to write, a pause, a stall (write nothing more, never end), or a death (destroy the socket). */
export type BodyPiece = string | { waitMs: number } | { stall: true } | { die: true };

export type FaultStep =
  /** An answer: `json` (content-type JSON) or `sse` pieces (content-type text/event-stream, chunked), after `delayMs` before the headers. */
  | { status?: number; headers?: Record<string, string>; delayMs?: number; json: unknown }
  | { status?: number; headers?: Record<string, string>; delayMs?: number; sse: BodyPiece[] }
  /** Stall before the headers: read the request, never answer. */
  | { stall: true }
  /** Read the request, then destroy the socket without an answer. */
  | { destroy: true };

export type FaultScript = readonly FaultStep[] | ((request: RecordedRequest, index: number) => FaultStep);

export interface FaultUpstream {
  /** Base URL with the version path: `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Requests whose connection closed before their reply was complete (the proxy gave up, or the step died). */
  aborted: RecordedRequest[];
  /** Requests being answered right now, and the most there ever were at once. */
  readonly open: number;
  readonly peakOpen: number;
  /** Replaces the script and forgets the requests seen so far. */
  script(next: FaultScript): void;
  /** Resolves once `count` requests have arrived. */
  received(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** OpenAI's error body. */
export function errorJson(message: string, extra: Record<string, unknown> = {}): unknown {
  return { error: { message, type: 'invalid_request_error', param: null, code: null, ...extra } };
}

export async function startFaultUpstream(initial: FaultScript = []): Promise<FaultUpstream> {
  let script: FaultScript = initial;
  const requests: RecordedRequest[] = [];
  const aborted: RecordedRequest[] = [];
  let open = 0;
  let peakOpen = 0;
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });

  function stepFor(recorded: RecordedRequest, index: number): FaultStep | undefined {
    if (typeof script === 'function') return script(recorded, index);
    return script[Math.min(index, script.length - 1)];
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const recorded = await recordRequest(req);
    const index = requests.push(recorded) - 1;
    open += 1;
    peakOpen = Math.max(peakOpen, open);
    res.on('close', () => {
      open -= 1;
      if (!res.writableFinished) aborted.push(recorded);
    });
    for (const wake of waiters) wake();

    const step = stepFor(recorded, index);
    if (!step) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorJson('no script')));
      return;
    }
    if ('stall' in step) return;
    if ('destroy' in step) {
      req.socket.destroy();
      return;
    }
    if (step.delayMs) await pause(step.delayMs);
    if (res.destroyed) return;
    if ('json' in step) {
      res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
      res.end(JSON.stringify(step.json));
      return;
    }
    res.writeHead(step.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...step.headers });
    res.flushHeaders();
    for (const piece of step.sse) {
      if (res.destroyed) return;
      if (typeof piece === 'string') {
        res.write(piece);
      } else if ('waitMs' in piece) {
        await pause(piece.waitMs);
      } else if ('stall' in piece) {
        return;
      } else {
        // Let what was written leave first, so the client has it before the connection dies.
        await pause(10);
        req.socket.destroy();
        return;
      }
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    aborted,
    get open() {
      return open;
    },
    get peakOpen() {
      return peakOpen;
    },
    script(next) {
      script = next;
      requests.length = 0;
      aborted.length = 0;
      peakOpen = open;
    },
    async received(count, timeoutMs = 2000) {
      if (requests.length >= count) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} upstream requests within ${timeoutMs} ms, got ${requests.length}`));
        }, timeoutMs);
        function check(): void {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A URL on 127.0.0.1 where nothing listens: connecting is refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
