/**
 * One translated request, over Node's own request/response objects:
 * read -> validate -> parse -> route -> plan -> engine -> serialize -> write,
 * trying the route's fallbacks while nothing has reached the caller.
 * Framework-neutral, so the Express router and a bare `node:http` server
 * share it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AFFINITY_HEADERS, type AdapterContext } from '../backend/adapter.js';
import type { Dialect } from '../dialects/dialect.js';
import { failureOf, ProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { StreamEvent } from '../model/stream-event.js';
import { coalesceEvents } from '../streaming/coalesce-events.js';
import { sseHeaders } from '../streaming/encode-sse.js';
import { sseKeepAliveComment } from '../streaming/keep-alive.js';
import { checkApiKey } from './check-api-key.js';
import { BackendFailure, startWithFallbacks } from './fall-back.js';
import { firstEvent } from './first-event.js';
import { NO_ROUTE } from '../metrics/proxy-metrics.js';
import { RequestMeter, perfHeaders } from './measure.js';
import { parseCallerRequest } from './parse-caller-request.js';
import type { Plan } from './plan.js';
import { readJsonBody } from './read-json-body.js';
import { checkJsonDepth } from './json-depth.js';
import { checkRequestLimits } from './request-limits.js';
import { requestIdOf } from './request-id.js';
import { sendError, sendJson } from './send-json.js';
import { failBackground, startBackground } from './background-response.js';
import { keepAnswer, keepStreamed, repeatState, resolveResponseState, type ResponseState } from './response-state.js';
import type { Backend } from './route-table.js';
import type { ProxyRuntime } from './runtime.js';
import { CallerStream, writeCallerStream } from './caller-stream.js';
import { dryRunAnswer } from './translation-report.js';

/** A stream whose backend took the request: its first event, or a keep-alive that came first. */
interface StartedStream {
  iterator: AsyncIterator<StreamEvent[]>;
  first: Promise<IteratorResult<StreamEvent[]>>;
  keepAlive: boolean;
}

export async function handleRequest(runtime: ProxyRuntime, dialect: Dialect, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const meter = new RequestMeter();
  const requestId = requestIdOf(req);
  res.setHeader('x-request-id', requestId);
  const log: Record<string, unknown> = { requestId, dialect: dialect.name };
  const abort = new AbortController();
  // A client that goes away cancels the upstream work at once; so does the end of a shutdown's grace (inFlight.end).
  res.on('close', () => { if (!res.writableFinished) abort.abort(); });
  runtime.inFlight.enter(abort);
  const { sseKeepAliveMs } = runtime.config.server;
  const { metrics } = runtime;
  let route = NO_ROUTE;
  const tried: string[] = [];
  // The backend working on the request now, counted in flight while it does.
  let serving: string | undefined;
  const serve = (name?: string) => {
    if (serving !== undefined) metrics.finished(serving);
    serving = name;
    if (name !== undefined) metrics.started(name);
  };

  // A Responses request's state (response-state.ts), once read.
  let state: ResponseState | undefined;
  const notKept = (error: unknown) => runtime.logger.warn('response not kept', { requestId, store: runtime.responseStore?.kind, error: String(error) });
  try {
    // Whose request this is: the state it makes (stored responses, background runs) belongs to this owner.
    const owner = checkApiKey(req, runtime.config.server.apiKeys);
    const { server, limits } = runtime.config;
    const read = await readJsonBody(req, server.maxBodyBytes, server.requestTimeoutMs);
    // Before anything walks it: the proxy's walkers recurse.
    checkJsonDepth(read, limits.jsonDepth);
    state = dialect.document === 'responses' ? await resolveResponseState(read, { store: runtime.responseStore, settings: runtime.config.responses.store, owner }) : undefined;
    const body = state ? state.body : read;
    const request = parseCallerRequest(runtime.validator, dialect, body, req.headers);
    checkRequestLimits(request, limits);
    if (state) repeatState(request, state);
    log.model = request.model;
    const match = runtime.routes.match(request.model);
    route = match.route?.model ?? NO_ROUTE;
    if (isDryRun(req)) {
      log.backend = match.backend.name;
      log.dryRun = true;
      const answer = await dryRunAnswer({ request, body: body as Record<string, unknown>, dialect, match, limits });
      sendJson(res, answer.status, answer.body);
      log.status = answer.status;
      return;
    }
    const headers = affinityHeaders(req);
    let backendName = match.backend.name;
    const retrying = (failure: ProxyError) => {
      metrics.retried(backendName, failure);
      runtime.logger.info('retrying', { requestId, backend: backendName, status: failure.status, reason: failure.code ?? failure.type });
    };
    const context = (accepted?: () => void): AdapterContext => ({ signal: abort.signal, requestId, headers, retrying, fanOut: runtime.fanOut, ...(accepted ? { accepted } : {}) });
    const attempt = <T>(start: (plan: Plan, backend: Backend) => Promise<T>) => startWithFallbacks({
      request, match, signal: abort.signal, start, limits: runtime.config.limits,
      onTry: (backend) => {
        tried.push(backend.name);
        backendName = backend.name;
        serve(backend.name);
      },
      onFallBack: (from, to, failure) => {
        metrics.failed(from.name, failure);
        metrics.fellBack(route, from.name, to.name);
        runtime.logger.warn('falling back', { requestId, from: from.name, to: to.name, status: failure.status, reason: failure.code ?? failure.type });
      },
    });

    if (state?.backgroundId !== undefined) {
      log.background = state.backgroundId;
      await startBackground(runtime, dialect, request, state, res, abort);
    }

    if (request.stream) {
      log.stream = true;
      const { backend, plan, started } = await attempt(async (plan): Promise<StartedStream> => {
        let accepted: () => void = () => undefined;
        const acceptance = new Promise<void>((resolve) => { accepted = resolve; });
        let batches = plan.engine.stream(plan.request, context(accepted));
        if (plan.request.stream?.coalesce) batches = coalesceEvents(batches, plan.request.stream.coalesce);
        // Wait for the first event before sending headers, so a failure before any output is still
        // an ordinary HTTP error (and the next backend may take over); a backend that has taken the
        // request but stays silent gets the headers and a keep-alive comment instead.
        const iterator = batches[Symbol.asyncIterator]();
        const first = iterator.next().catch((thrown: unknown): IteratorResult<StreamEvent[]> => ({ done: false, value: [{ type: 'error', error: failureOf(thrown, abort.signal) }] }));
        const keepAlive = await firstEvent(first, acceptance, sseKeepAliveMs);
        if (!keepAlive) {
          const result = await first;
          const opening = result.done ? undefined : result.value[0];
          if (opening?.type === 'error') {
            await iterator.return?.(undefined);
            // An HTTP error (or the next backend's turn), not a broken stream.
            throw plan.callerError(opening.error);
          }
        }
        return { iterator, first, keepAlive };
      });
      log.backend = backend.name;
      setAnswerHeaders(res, plan.request, backend, tried);
      res.writeHead(200, sseHeaders);
      // No flushHeaders: unless a keep-alive is due, the first event is already here and the headers leave with it.
      if (started.keepAlive) res.write(sseKeepAliveComment);
      const stream = new CallerStream(dialect.streamSerializer(plan.request), { meter, callerError: plan.callerError, perfMetricsInBody: plan.request.perfMetricsInBody === true });
      const stored = state?.store ? state : undefined;
      await writeCallerStream(res, prepend(started.first, started.iterator), stream, {
        framing: dialect.sse,
        keepAliveMs: sseKeepAliveMs,
        signal: abort.signal,
        ...(stored ? { beforeWrite: (chunk: Record<string, unknown>) => keepStreamed(chunk, stored, notKept) } : {}),
      });
      log.status = abort.signal.aborted ? 499 : 200;
      // The status went out as 200; a stream that then failed says so in the log.
      if (meter.streamError) {
        log.error = `${meter.streamError.code ?? meter.streamError.type}: ${meter.streamError.message}`;
        if (meter.streamError.status >= 500) metrics.failed(backend.name, meter.streamError);
      }
    } else {
      const { backend, plan, started: result } = await attempt((plan) => plan.engine.complete(plan.request, context()));
      log.backend = backend.name;
      meter.markFirstToken();
      meter.usage = result.usage;
      meter.backendPerf = result.perf;
      meter.end();
      result.perf = meter.perfMetrics();
      let answer = dialect.serializeResult(result, plan.request);
      if (state) answer = await keepAnswer(answer, state, notKept);
      log.status = 200;
      if (state?.backgroundId !== undefined) return; // answered at the start: the store has it now
      setAnswerHeaders(res, plan.request, backend, tried);
      sendJson(res, 200, answer, perfHeaders(result.perf));
    }
  } catch (thrown) {
    const error = failureOf(thrown instanceof BackendFailure ? thrown.failure : thrown, abort.signal);
    if (thrown instanceof BackendFailure) {
      log.backend = thrown.backend.name;
      if (!res.headersSent) setBackendHeaders(res, thrown.backend.name, tried);
    }
    log.status = error.status;
    log.error = error.message;
    if (thrown instanceof BackendFailure && (error.status === 429 || error.status >= 500)) metrics.failed(thrown.backend.name, error);
    logFailure(runtime, requestId, log, error, thrown);
    if (state?.backgroundId !== undefined && res.headersSent) await failBackground(runtime, state, error);
    else if (!res.headersSent && !res.destroyed) {
      // The rest of a body too large or too slow is left unread: this connection takes no next request.
      if (error.code === 'request_timeout' || error.code === 'request_too_large') res.setHeader('connection', 'close');
      sendError(res, dialect, error);
    }
    else if (!res.writableEnded && !res.destroyed) res.end(isSse(res) ? dialect.streamFailure(error) : undefined);
  } finally {
    if (state?.backgroundId !== undefined) runtime.backgroundRuns.delete(state.backgroundId);
    runtime.inFlight.leave(abort);
    serve(undefined);
    meter.end();
    if (tried.length > 1) log.tried = tried;
    metrics.answered({
      dialect: dialect.name, backend: typeof log.backend === 'string' ? log.backend : NO_ROUTE, route,
      status: typeof log.status === 'number' ? log.status : 500, durationMs: meter.latencyMs, ttftMs: meter.timeToFirstTokenMs, usage: meter.usage,
    });
    // winston formats (redacts, stamps) an entry before its transports drop it for its level: not built at all then.
    if (runtime.logger.isLevelEnabled('info')) runtime.logger.info('request', {
      ...log,
      promptTokens: meter.usage?.promptTokens,
      completionTokens: meter.usage?.completionTokens,
      latencyMs: Math.round(meter.latencyMs),
      ttftMs: meter.timeToFirstTokenMs === undefined ? undefined : Math.round(meter.timeToFirstTokenMs),
    });
  }
}

/**
 * A backend that fails is an operational event: one warning, no stack. Only
 * a failure of the proxy itself (an error that is not a ProxyError) is logged
 * as an error, with its stack.
 */
function logFailure(runtime: ProxyRuntime, requestId: string, log: Record<string, unknown>, error: ProxyError, thrown: unknown): void {
  if (error.code === 'internal_error') {
    const cause = thrown instanceof BackendFailure ? thrown.failure.cause : thrown;
    runtime.logger.error('request failed', { requestId, error: (cause as Error)?.stack ?? String(cause) });
  } else if (error.status >= 500 || error.status === 429) {
    runtime.logger.warn('backend failed', { requestId, backend: log.backend, status: error.status, reason: error.code ?? error.type, message: error.message });
  }
}

/** Which backend answered (and which were tried), and the lossy changes made on the way; headers leave with the first byte. */
function setAnswerHeaders(res: ServerResponse, request: NeutralRequest, backend: Backend, tried: readonly string[]): void {
  setBackendHeaders(res, backend.name, tried);
  if (request.warnings.length > 0) res.setHeader('x-dialect-warnings', request.warnings.join('; '));
}

function setBackendHeaders(res: ServerResponse, backend: string, tried: readonly string[]): void {
  res.setHeader('x-dialect-backend', backend);
  if (tried.length > 1) res.setHeader('x-dialect-tried', tried.join(', '));
}

function isSse(res: ServerResponse): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

/** The stream again, with its already-pulled first batch in front (no extra generator layer). */
function prepend<T>(first: Promise<IteratorResult<T>>, rest: AsyncIterator<T>): AsyncIterable<T> {
  let pulled = false;
  const iterator: AsyncIterator<T> = {
    next: () => {
      if (pulled) return rest.next();
      pulled = true;
      return first;
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
