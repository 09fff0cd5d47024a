/**
 * One translated request, over Node's own request/response objects:
 * read -> validate -> parse -> plan -> engine -> serialize -> write.
 * Framework-neutral, so the Express router and a bare `node:http` server
 * share it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AFFINITY_HEADERS } from '../backend/adapter.js';
import type { Dialect } from '../dialects/dialect.js';
import { ProxyError, toProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { StreamEvent } from '../model/stream-event.js';
import { coalesceEvents } from '../streaming/coalesce-events.js';
import { sseHeaders } from '../streaming/encode-sse.js';
import { writeSse } from '../streaming/write-sse.js';
import { checkApiKey } from './check-api-key.js';
import { describeDryRun } from './dry-run.js';
import { RequestMeter, perfHeaders } from './measure.js';
import { parseCallerRequest } from './parse-caller-request.js';
import { planRequest } from './plan.js';
import { readJsonBody } from './read-json-body.js';
import { requestIdOf } from './request-id.js';
import type { ProxyRuntime } from './runtime.js';
import { attachPerfMetrics, observeStream } from './stream-stages.js';

export async function handleRequest(runtime: ProxyRuntime, dialect: Dialect, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const meter = new RequestMeter();
  const requestId = requestIdOf(req);
  res.setHeader('x-request-id', requestId);
  const log: Record<string, unknown> = { requestId, dialect: dialect.name };
  const abort = new AbortController();
  // A client that goes away cancels the upstream work at once.
  res.on('close', () => { if (!res.writableFinished) abort.abort(); });

  try {
    checkApiKey(req, runtime.config.server.apiKeys);
    const body = await readJsonBody(req, runtime.config.server.maxBodyBytes);
    const request = parseCallerRequest(runtime.validator, dialect, body, req.headers);
    log.model = request.model;
    const match = runtime.routes.match(request.model);
    log.backend = match.backend.name;
    if (isDryRun(req)) {
      log.dryRun = true;
      sendJson(res, 200, await describeDryRun(request, match));
      log.status = 200;
      return;
    }
    const plan = planRequest(request, match);
    const context = { signal: abort.signal, requestId, headers: affinityHeaders(req) };

    if (request.stream) {
      log.stream = true;
      let events: AsyncIterable<StreamEvent> = observeStream(plan.engine.stream(plan.request, context), meter);
      if (request.perfMetricsInBody) events = attachPerfMetrics(events, meter);
      if (request.stream.coalesce) events = coalesceEvents(events, request.stream.coalesce);
      // Pull the first event before sending headers, so a failure that happens
      // before any output is still an ordinary HTTP error.
      const iterator = events[Symbol.asyncIterator]();
      const first = await iterator.next();
      if (!first.done && first.value.type === 'error') {
        await iterator.return?.(undefined);
        throw first.value.error;
      }
      setWarnings(res, request);
      // No flushHeaders: the first event is already here, so the headers leave with it in one write.
      res.writeHead(200, sseHeaders);
      await writeSse(res, dialect.serializeStream(prepend(first, iterator), request));
      log.status = abort.signal.aborted ? 499 : 200;
    } else {
      const result = await plan.engine.complete(plan.request, context);
      meter.markFirstToken();
      meter.usage = result.usage;
      meter.backendPerf = result.perf;
      meter.end();
      result.perf = meter.perfMetrics();
      setWarnings(res, request);
      sendJson(res, 200, dialect.serializeResult(result, request), perfHeaders(result.perf));
      log.status = 200;
    }
  } catch (thrown) {
    const error = toProxyError(thrown);
    log.status = error.status;
    log.error = error.message;
    if (error.status >= 500 && error.status !== 499) runtime.logger.error('request failed', { requestId, error: (thrown as Error)?.stack ?? String(thrown) });
    if (!res.headersSent && !res.destroyed) sendError(res, dialect, error);
    else if (!res.writableEnded) res.end();
  } finally {
    meter.end();
    runtime.logger.info('request', {
      ...log,
      promptTokens: meter.usage?.promptTokens,
      completionTokens: meter.usage?.completionTokens,
      latencyMs: Math.round(meter.latencyMs),
      ttftMs: meter.timeToFirstTokenMs === undefined ? undefined : Math.round(meter.timeToFirstTokenMs),
    });
  }
}

/** Lossy changes made on the way, set once the adapter has had its say (headers leave with the first byte). */
function setWarnings(res: ServerResponse, request: NeutralRequest): void {
  if (request.warnings.length > 0) res.setHeader('x-dialect-warnings', request.warnings.join('; '));
}

/** The stream again, with its already-pulled first result in front (no extra generator layer per event). */
function prepend<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncIterable<T> {
  let pulled = false;
  const iterator: AsyncIterator<T> = {
    next: () => {
      if (pulled) return rest.next();
      pulled = true;
      return Promise.resolve(first);
    },
    return: async (value?: unknown) => (await rest.return?.(value)) ?? { done: true, value: undefined },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** `x-dialect-dry-run: 1`: answer with what would be sent upstream, and send nothing. */
function isDryRun(req: IncomingMessage): boolean {
  const value = req.headers['x-dialect-dry-run'];
  return value === '1' || value === 'true';
}

function affinityHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of AFFINITY_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, dialect: Pick<Dialect, 'errorBody'> | undefined, error: ProxyError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
  if (error.status === 413) headers.connection = 'close';
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  sendJson(res, error.status === 499 ? 400 : error.status, dialect ? dialect.errorBody(error) : error.toBody(), headers);
}
