/**
 * The warm-up's upstream (warm-up.ts): a loopback server that answers as the
 * remote kinds' servers do, each kind under a path of its own and in its own
 * wire (`WarmUpTarget.cannedAnswer`, declared in the kind's folder), as one
 * JSON body or as a stream of a few tokens, each its own write. It exists so
 * that no synthetic request ever reaches a real backend, which could cost its
 * owner money.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { findKind } from '../../adapters/registry.js';
import { closeServer, listenOnLoopback } from './loopback-server.js';

export interface CannedUpstream {
  /** The base URL a backend of `kind` points at (`http://127.0.0.1:port/<kind>/v1`). */
  urlFor(kind: string): string;
  close(): Promise<void>;
}

export async function startCannedUpstream(): Promise<CannedUpstream> {
  const server = createServer((req, res) => void answer(req, res));
  const port = await listenOnLoopback(server);
  return {
    urlFor: (kind) => `http://127.0.0.1:${port}/${kind}/v1`,
    close: () => closeServer(server),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body: Record<string, unknown> = {};
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Answered below all the same: the warm-up only needs the proxy's side to run.
  }
  // `/<kind>/v1/...`: the kind names the wire; the rest is the path under the backend's url.
  const [, kind = '', path = ''] = /^\/([^/]*)\/v1(\/.*)?$/.exec(req.url ?? '') ?? [];
  const canned = findKind(kind)?.warmUp?.cannedAnswer({ path, body });
  if (!canned) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found","type":"invalid_request_error"}}');
    return;
  }
  if ('json' in canned) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(canned.json));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of canned.events) res.write(event);
  res.end();
}
