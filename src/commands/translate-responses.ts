/**
 * `dialect-proxy translate --responses REPLY`: a recorded backend reply (a JSON
 * body, or an SSE stream as the backend sent it) read back through the real
 * adapter and the real plan, and written as the caller's dialect would get it,
 * so parsers can be tested offline. The backend's adapter talks to a replay
 * server on 127.0.0.1 that answers every request with the recording; nothing
 * leaves the machine.
 */
import { serializeEvents } from '../dialects/stream-serializer.js';
import { createServer, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from '../runtime/loopback-server.js';
import { findKind } from '../../adapters/registry.js';
import type { AdapterContext } from '../backend/adapter.js';
import type { BackendCommon } from '../config/settings.js';
import type { Dialect } from '../dialects/dialect.js';
import { ProxyError, toProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import { planRequest } from '../pipeline/plan/plan.js';
import type { Backend, RouteMatch } from '../pipeline/plan/route-table.js';
import { sseDone } from '../streaming/encode-sse.js';
import { eachEvent } from '../streaming/stream-batches.js';
import { endpointOfDialect, parseBody, TargetError, type CallerEndpoint, type Translator } from './translate.js';

/** A recording: its text and whether it is an SSE stream. */
export interface Recording {
  text: string;
  stream: boolean;
  /** The JSON body (a non-streamed reply). */
  json?: unknown;
}

export interface ResponseTranslation {
  object: 'dialect.translated_response';
  dialect: Dialect['name'];
  backend?: string;
  kind?: string;
  /** The upstream request the recording answers (as the proxy would have sent it). */
  upstream?: { endpoint: string; stream: boolean };
  /** True when the caller gets what the recording says (no error). */
  ok: boolean;
  /** The HTTP status the caller gets. */
  status: number;
  stream: boolean;
  /** A non-streamed answer (or an error body), in the caller's dialect. */
  body?: Record<string, unknown>;
  /** A streamed answer: each `data:` payload, in order (`[DONE]` last). */
  chunks?: unknown[];
  /** The streamed answer as SSE text, exactly as the caller reads it. */
  sse?: string;
}

/** JSON, or an SSE stream (its first line a `data:`, `event:`, `id:`, `retry:` field or a `:` comment). */
export function readRecording(text: string): Recording {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  if (/^(data|event|id|retry)\s*:|^:/.test(first.trimStart())) return { text, stream: true };
  try {
    return { text, stream: false, json: JSON.parse(text) };
  } catch (error) {
    throw new TargetError(`the reply is neither JSON nor an SSE stream (${(error as Error).message})`);
  }
}

/**
 * Translates one recorded reply for one request body: the body says what the
 * caller asked (its dialect, tools, logprobs shape); the request is treated as
 * streamed exactly when the recording is a stream.
 */
export async function translateResponse(
  translator: Translator,
  input: unknown,
  recording: Recording,
  options: { endpoint?: CallerEndpoint; model?: string } = {},
): Promise<ResponseTranslation> {
  const first = parseBody(translator.validator, input, options);
  const body = { ...first.body };
  if (recording.stream) body.stream = true;
  else {
    delete body.stream;
    delete body.stream_options;
  }
  const parsed = parseBody(translator.validator, body, { ...options, endpoint: options.endpoint ?? endpointOfDialect(first.dialect) });
  const { dialect } = parsed;
  const failed = (status: number, error: Record<string, unknown>, extra: Partial<ResponseTranslation> = {}): ResponseTranslation => ({
    object: 'dialect.translated_response',
    dialect: dialect.name,
    ...extra,
    ok: false,
    status,
    stream: false,
    body: error,
  });
  if (!parsed.request) return failed(parsed.error?.status ?? 400, parsed.error?.body ?? {});
  let routed: RouteMatch;
  try {
    routed = translator.match(parsed.request.model);
  } catch (error) {
    const failure = toProxyError(error);
    return failed(failure.status, dialect.errorBody(failure));
  }
  const about = { backend: routed.backend.name, kind: routed.backend.settings.kind };
  if (!findKind(routed.backend.settings.kind)?.remote) {
    throw new TargetError(
      `backend "${routed.backend.name}" (kind ${routed.backend.settings.kind}) runs in the proxy: it has no wire reply to replay`,
    );
  }

  const replay = await startReplay(recording);
  let backend: Backend | undefined;
  try {
    backend = await replayBackend(routed.backend, replay.url);
    const request: NeutralRequest = parsed.request;
    let plan;
    try {
      plan = planRequest(request, { ...routed, backend });
    } catch (error) {
      const failure = toProxyError(error);
      return failed(failure.status, dialect.errorBody(failure), about);
    }
    const context: AdapterContext = { signal: new AbortController().signal, requestId: 'translate-responses' };
    const upstream = () => ({ endpoint: replay.paths[0] ?? '(none)', stream: recording.stream });
    if (recording.stream) {
      const chunks: unknown[] = [];
      let ok = true;
      let sse = '';
      for await (const chunk of serializeEvents(
        dialect.streamSerializer(plan.request),
        eachEvent(plan.engine.stream(plan.request, context)),
      )) {
        chunks.push(chunk);
        sse += dialect.sse.frame(chunk);
        if ('error' in chunk || chunk.type === 'error' || chunk.type === 'response.failed') ok = false;
      }
      if (dialect.sse.end === sseDone) chunks.push('[DONE]');
      sse += dialect.sse.end;
      return {
        object: 'dialect.translated_response',
        dialect: dialect.name,
        ...about,
        upstream: upstream(),
        ok,
        status: 200,
        stream: true,
        chunks,
        sse,
      };
    }
    try {
      const result = await plan.engine.complete(plan.request, context);
      return {
        object: 'dialect.translated_response',
        dialect: dialect.name,
        ...about,
        upstream: upstream(),
        ok: true,
        status: 200,
        stream: false,
        body: dialect.serializeResult(result, plan.request),
      };
    } catch (error) {
      if (!(error instanceof ProxyError)) throw error;
      return failed(error.status, dialect.errorBody(error), { ...about, upstream: upstream() });
    }
  } finally {
    await backend?.adapter.close?.();
    await replay.close();
  }
}

/** The routed backend again, its URL the replay server's, without retries (a recording answers the same every time). */
async function replayBackend(routed: Backend, url: string): Promise<Backend> {
  const kind = findKind(routed.settings.kind);
  if (!kind) throw new TargetError(`no backend kind "${routed.settings.kind}"`);
  const { urls: _urls, health: _health, ejection: _ejection, ...settings } = routed.settings as BackendCommon & Record<string, unknown>;
  const replaying = { ...settings, url, retries: { attempts: 0, initialDelayMs: 1, maxDelayMs: 1 } } as BackendCommon;
  return { name: routed.name, settings: replaying, adapter: await kind.create(routed.name, replaying) };
}

interface Replay {
  url: string;
  /** The paths asked, in order (`/v1/chat/completions`). */
  paths: string[];
  close(): Promise<void>;
}

/** Answers every POST with the recording: a stream as `text/event-stream`, an `{"error": ...}` body as a 400, any other JSON as a 200. */
async function startReplay(recording: Recording): Promise<Replay> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      paths.push((req.url ?? '/').replace(/^\/v1(?=\/)/, ''));
      if (recording.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
      } else {
        const error = typeof recording.json === 'object' && recording.json !== null && 'error' in recording.json;
        res.writeHead(error ? 400 : 200, { 'content-type': 'application/json' });
      }
      res.end(recording.text);
    });
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    paths,
    close: () => closeServer(server),
  };
}
