/**
 * Replicas of one mock model server on 127.0.0.1, for the pool tests: each
 * answers chat completions (JSON or a short stream) and `GET /health`, counts
 * the affinity keys it served, and can be stopped and started again on the
 * same port, made to fail with a status, or made to hold its answers until
 * released.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReplicaMode = 'ok' | 'hold' | { status: number };

export interface MockReplica {
  readonly name: string;
  /** The base URL, `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  /** The affinity key of every chat request answered or held, in order (as the proxy reads it: headers, then prompt_cache_key, then user). */
  readonly keys: string[];
  /** Chat requests received (answered, failed or held). */
  readonly count: number;
  /** Probes of `/health` received. */
  readonly probes: number;
  mode: ReplicaMode;
  /** Answers every held request (200). */
  releaseHeld(): void;
  /** Forgets the keys and counts seen so far, and answers again. */
  reset(): void;
  /** Stops listening and cuts every connection: requests get "connection refused". */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const created = 1_700_000_000;

function answer(replica: string): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: `from ${replica}` }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  });
}

function streamed(replica: string): string {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  return chunk({ role: 'assistant', content: '' }) + chunk({ content: `from ${replica}` }) + chunk({}, 'stop') + 'data: [DONE]\n\n';
}

export async function startMockReplica(name: string): Promise<MockReplica> {
  const keys: string[] = [];
  const held: ServerResponse[] = [];
  let count = 0;
  let probes = 0;
  let mode: ReplicaMode = 'ok';
  let server: Server | undefined;
  let port = 0;

  const reply = (res: ServerResponse, stream: boolean) => {
    if (stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(streamed(name));
    else res.writeHead(200, { 'content-type': 'application/json' }).end(answer(name));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url === '/health') {
      probes += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
      user?: string;
      prompt_cache_key?: string;
      stream?: boolean;
    };
    count += 1;
    // The proxy's order (src/dialects/request-context.ts); the headers are forwarded, the fields sent.
    const header = (name: string) => req.headers[name] as string | undefined;
    const key = header('x-session-affinity') ?? header('x-multi-turn-session-id') ?? body.prompt_cache_key ?? body.user;
    if (key !== undefined) keys.push(key);
    if (mode === 'hold') {
      held.push(res);
      return;
    }
    if (typeof mode === 'object') {
      res
        .writeHead(mode.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `${name} fails`, type: 'server_error' } }));
      return;
    }
    reply(res, body.stream === true);
  }

  async function listen(): Promise<void> {
    const created = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(port, '127.0.0.1', () => resolve());
    });
    port = (created.address() as AddressInfo).port;
    server = created;
  }

  async function stop(): Promise<void> {
    const current = server;
    server = undefined;
    if (!current) return;
    current.closeAllConnections();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen();
  return {
    name,
    url: `http://127.0.0.1:${port}/v1`,
    keys,
    get count() {
      return count;
    },
    get probes() {
      return probes;
    },
    get mode() {
      return mode;
    },
    set mode(next: ReplicaMode) {
      mode = next;
    },
    releaseHeld() {
      for (const res of held.splice(0)) if (!res.destroyed) reply(res, false);
    },
    reset() {
      keys.splice(0);
      count = 0;
      probes = 0;
      mode = 'ok';
    },
    stop,
    start: listen,
    close: stop,
  };
}
