/**
 * One translated request, over Node's own request/response objects:
 * read -> (the dialect's state) -> parse -> route -> plan and start, falling
 * back while nothing has reached the caller -> serialize -> write.
 * Framework-neutral, so the Express router and a bare `node:http` server
 * share it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState, StateRoute, StateServices } from '../dialects/dialect-state.js';
import type { Dialect } from '../dialects/dialect.js';
import { toProxyError, type ProxyError } from '../errors/proxy-error.js';
import { setBackendHeaders } from './answer/answer-headers.js';
import { answerJson } from './answer/answer-json.js';
import { answerStream } from './answer/answer-stream.js';
import { checkApiKey } from './request/check-api-key.js';
import { BackendFailure } from './plan/fall-back.js';
import { parseCallerRequest } from './request/parse-caller-request.js';
import { readCallerBody } from './request/read-json-body.js';
import { RequestRecord } from './answer/request-record.js';
import { requestIdOf } from './request/request-id.js';
import { checkRequestLimits } from './request/request-limits.js';
import type { ProxyRuntime } from './runtime.js';
import { sendError, sendJson } from './answer/send-json.js';
import { affinityHeaders } from './answer/start-on-route.js';
import { dryRunAnswer } from './report/translation-report.js';

export async function handleRequest(runtime: ProxyRuntime, dialect: Dialect, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const record = new RequestRecord(runtime, dialect, requestIdOf(req), req.headers);
  res.setHeader('x-request-id', record.requestId);
  if (dialect.requestIdHeader) res.setHeader(dialect.requestIdHeader, record.requestId);
  const abort = new AbortController();
  // A client that goes away cancels the upstream work at once; so does the end of a shutdown's grace (inFlight.end).
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  runtime.inFlight.enter(abort);
  const { server, limits } = runtime.config;
  let state: RequestState | undefined;
  try {
    // Whose request this is: the state it makes (stored responses, background runs) belongs to this owner.
    const owner = checkApiKey(req, server.apiKeys, dialect.apiKeyFrom);
    const body = await readCallerBody(req, runtime.config);
    state = await dialect.state?.begin(body, stateServices(runtime, owner, record.requestId));
    const loading = runtime.validator.prepare(dialect.document); // the dialect's first request loads its validators
    if (loading) await loading;
    const request = parseCallerRequest(runtime.validator, dialect, state ? state.body : body, req.headers, runtime.dialectContext);
    checkRequestLimits(request, limits);
    state?.echo(request);
    const match = runtime.routes.match(request.model);
    record.routed(request, match);
    if (isDryRun(req)) {
      const answer = await dryRunAnswer({ request, body: (state ? state.body : body) as Record<string, unknown>, dialect, match, limits });
      record.dryRun(match.backend.name, answer.status);
      // As a real answer says which backend served it, a dry run says which one it planned for.
      setBackendHeaders(res, match.backend.name, []);
      sendJson(res, answer.status, answer.body);
      return;
    }
    if (state?.detach) {
      const queued = await state.detach(request, abort);
      record.detached(String(queued.id));
      sendJson(res, 200, queued);
    }
    const call = { runtime, dialect, request, match, record, owner, signal: abort.signal, headers: affinityHeaders(req.headers) };
    await (request.stream ? answerStream(call, res, state) : answerJson(call, res, state));
  } catch (thrown) {
    const error = record.failed(thrown, abort.signal);
    if (state?.detach && res.headersSent) await state.fail(error);
    else answerFailure(res, dialect, error, thrown instanceof BackendFailure ? thrown.backend.name : undefined, record.tried);
  } finally {
    state?.end();
    runtime.inFlight.leave(abort);
    record.finish();
  }
}

/** A stateful dialect's own route (`GET /v1/responses/:id`): for the caller's key only, errors in OpenAI's shape. */
export async function answerStateRoute(
  runtime: ProxyRuntime,
  route: StateRoute,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    const owner = checkApiKey(req, runtime.config.server.apiKeys);
    sendJson(res, 200, await route.answer(id, stateServices(runtime, owner, requestIdOf(req))));
  } catch (error) {
    sendError(res, undefined, toProxyError(error));
  }
}

/** The error in the caller's dialect; after a stream's headers, its dialect's closing frames. */
function answerFailure(
  res: ServerResponse,
  dialect: Dialect,
  error: ProxyError,
  backend: string | undefined,
  tried: readonly string[],
): void {
  if (res.destroyed) return;
  if (!res.headersSent) {
    if (backend !== undefined) setBackendHeaders(res, backend, tried);
    // The rest of a body too large or too slow is left unread: this connection takes no next request.
    if (error.code === 'request_timeout' || error.code === 'request_too_large') res.setHeader('connection', 'close');
    sendError(res, dialect, error);
  } else if (!res.writableEnded) {
    const type = String(res.getHeader('content-type') ?? '');
    const streamed = type.startsWith('text/event-stream') || type === dialect.sse.headers?.['content-type'];
    res.end(streamed ? dialect.streamFailure(error) : undefined);
  }
}

/** What the dialect's state hooks may use, for this caller. */
function stateServices(runtime: ProxyRuntime, owner: string, requestId: string): StateServices {
  const { responseStore: store, backgroundRuns: runs, config, logger } = runtime;
  return {
    ...(store ? { store } : {}),
    ...(config.responses.store ? { settings: config.responses.store } : {}),
    runs,
    owner,
    notKept: (error) => logger.warn('response not kept', { requestId, store: store?.kind, error: String(error) }),
  };
}

/** `x-dialect-dry-run: 1`: answer with what would be sent upstream, and send nothing. */
function isDryRun(req: IncomingMessage): boolean {
  const value = req.headers['x-dialect-dry-run'];
  return value === '1' || value === 'true';
}
