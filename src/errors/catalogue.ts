/**
 * The proxy's own refusals by name, so that each (status, type, code) is spelled
 * in one place and its callers say what happened. The generic ones stay in
 * proxy-error.ts beside the class: invalidRequest and unsupportedParameter (400s),
 * internalError (500) and clientClosedRequest (499). Errors copied from an
 * upstream body (map-upstream-error) or from the llama.cpp worker keep their
 * source's status and code, so they are built where they are read.
 */
import { fittingPrefix } from '../text/fitting-prefix.js';
import { internalError, ProxyError } from './proxy-error.js';

// ---- The caller's request ----

/** A 401 `invalid_api_key`: inbound keys are configured and the caller sent none. */
export function missingApiKey(): ProxyError {
  return new ProxyError({
    status: 401,
    type: 'authentication_error',
    code: 'invalid_api_key',
    message: 'Missing API key: send it as "Authorization: Bearer <key>".',
  });
}

/** A 401 `invalid_api_key`: the caller sent a key that is not one of the configured ones. */
export function incorrectApiKey(): ProxyError {
  return new ProxyError({ status: 401, type: 'authentication_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' });
}

/**
 * A 413 `request_too_large`: the body is over `server.maxBodyBytes`, by its content-length or as read.
 * @example requestTooLarge(1048576).message // 'The request body is larger than 1048576 bytes.'
 */
export function requestTooLarge(limitBytes: number): ProxyError {
  return new ProxyError({
    status: 413,
    type: 'invalid_request_error',
    code: 'request_too_large',
    message: `The request body is larger than ${limitBytes} bytes.`,
  });
}

/** The body parsed as JSON but is not an object; `status` is the dialect's validation status (400 chat, 422 completions). */
export function bodyNotAnObject(status: number): ProxyError {
  return new ProxyError({ status, type: 'invalid_request_error', message: 'The request body must be a JSON object.' });
}

/**
 * A 500 `body_unavailable`: a handler of the host app read the request stream
 * before the proxy and left no body in `req.body` (a host wiring fault, not the caller's).
 */
export function bodyConsumedByHost(): ProxyError {
  return new ProxyError({
    status: 500,
    type: 'server_error',
    code: 'body_unavailable',
    message:
      'The request body was read by another handler of the host app, which left nothing in req.body: mount the proxy before it, or parse JSON into req.body.',
  });
}

/**
 * A 404 `model_not_found` on `model`: no route matches the model name. `served` are the route
 * patterns in order (a literal route is a model name, `gpt-*` a family); the message lists them
 * within a budget, so that a caller sees what to ask for without a page of names.
 * @example modelNotFound('gpt-9', ['gpt-4o', 'claude-*']).message
 * // 'The model `gpt-9` does not exist or no route serves it. Served here: `gpt-4o`, `claude-*` (GET /v1/models lists the models).'
 */
export function modelNotFound(model: string, served: readonly string[] = []): ProxyError {
  const listed =
    served.length === 0
      ? ' No route serves any model.'
      : ` Served here: ${listWithin(served.map((name) => `\`${name}\``))} (GET /v1/models lists the models).`;
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    param: 'model',
    code: 'model_not_found',
    message: `The model \`${shownModel(model)}\` does not exist or no route serves it.${listed}`,
  });
}

/** The most of a caller's model name an error repeats, in UTF-8 bytes (as a span's name cuts it): a megabyte name must not come back as a megabyte answer. */
const MODEL_NAME_BYTES = 256;
const utf8Bytes = (code: number) => (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);

function shownModel(model: string): string {
  const { end } = fittingPrefix(model, MODEL_NAME_BYTES, utf8Bytes); // never half a surrogate pair
  return end === model.length ? model : `${model.slice(0, end)}…[truncated: ${model.length} chars]`;
}

/**
 * Names joined with commas, at most `maxItems` and about `maxChars` of them; the rest as "and N more".
 * @example listWithin(['a', 'b', 'c'], 2) // 'a, b and 1 more'
 */
function listWithin(names: readonly string[], maxItems = 10, maxChars = 300): string {
  const shown: string[] = [];
  let length = 0;
  for (const name of names) {
    if (shown.length === maxItems || (shown.length > 0 && length + name.length > maxChars)) break;
    shown.push(name);
    length += name.length + 2;
  }
  const rest = names.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/** A 404 `unknown_url`: the standalone server's answer for a path nothing serves. */
export function unknownUrl(method: string, path: string, meant?: string): ProxyError {
  const hint = meant ? ` Did you mean ${meant}? (A client's base URL should end in /v1 exactly once: the client adds the rest.)` : '';
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    code: 'unknown_url',
    message: `Unknown request URL: ${method} ${path}.${hint}`,
  });
}

/** A 405 (no code): a translated endpoint called with a method other than POST. */
export function methodNotAllowed(): ProxyError {
  return new ProxyError({ status: 405, type: 'invalid_request_error', message: 'Only POST is supported on this endpoint.' });
}

/**
 * A 426: a WebSocket upgrade on a translated endpoint (Codex CLI's Responses transport, where a provider
 * offers one). The proxy answers over HTTP only; on a 426 the client falls back to `POST`.
 */
export function upgradeRequired(path: string): ProxyError {
  return new ProxyError({
    status: 426,
    type: 'invalid_request_error',
    code: 'websocket_not_supported',
    message: `${path} is served over HTTP only, not over a WebSocket: send POST ${path} (with stream: true for events).`,
  });
}

/**
 * A 400 `limit_exceeded` naming the field: the request asks for more work than a configured budget allows
 * (`limits.*` or `responses.store.*`, which `limit` names so the operator knows what to raise).
 * @example limitExceeded('prompt', 'prompt holds 20000 prompts; at most 128 are taken in one request', 'limits.promptBatch').message
 * // 'prompt holds 20000 prompts; at most 128 are taken in one request (limits.promptBatch).'
 */
export function limitExceeded(param: string | null, why: string, limit: string): ProxyError {
  return new ProxyError({ status: 400, type: 'invalid_request_error', param, code: 'limit_exceeded', message: `${why} (${limit}).` });
}

/** A 429 `too_many_requests`: a configured count of things running at once (`limit`) is reached; retry once one has ended. */
export function concurrencyLimitReached(param: string | null, why: string, limit: string): ProxyError {
  return new ProxyError({
    status: 429,
    type: 'rate_limit_error',
    param,
    code: 'too_many_requests',
    message: `${why} (${limit}); retry once one has finished.`,
    retryAfterSeconds: 1,
  });
}

/**
 * A 408 `request_timeout`: the request body did not arrive whole within `server.requestTimeoutMs`.
 * @example requestTimeout(60000).message // 'The request body did not arrive within 60000 ms (server.requestTimeoutMs).'
 */
export function requestTimeout(limitMs: number): ProxyError {
  return new ProxyError({
    status: 408,
    type: 'invalid_request_error',
    code: 'request_timeout',
    message: `The request body did not arrive within ${limitMs} ms (server.requestTimeoutMs).`,
  });
}

// ---- Stored responses (the Responses API's state) ----

/** A 404 `previous_response_not_found`: `previous_response_id` names no response of the store. */
export function previousResponseNotFound(id: string): ProxyError {
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    param: 'previous_response_id',
    code: 'previous_response_not_found',
    message: `Previous response with id '${id}' not found.`,
  });
}

/**
 * A 404 `previous_response_not_found`: the conversation before `id` reaches `missing`, a response no
 * longer stored (deleted, expired or pushed out by newer ones), so it cannot be rebuilt.
 */
export function earlierResponseNotFound(id: string, missing: string): ProxyError {
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    param: 'previous_response_id',
    code: 'previous_response_not_found',
    message: `Response '${id}' continues the conversation of response '${missing}', which is no longer stored (deleted or expired): the conversation cannot be rebuilt.`,
  });
}

/** A 404 `response_not_found` for `GET`/`DELETE /v1/responses/{id}`; `why` ends the sentence (no store configured). */
export function responseNotFound(id: string, why = ''): ProxyError {
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    param: null,
    code: 'response_not_found',
    message: `Response with id '${id}' not found${why}.`,
  });
}

/** A 404 `item_not_found`: an `item_reference` names no item of a stored response. */
export function itemNotFound(id: string, param: string): ProxyError {
  return new ProxyError({
    status: 404,
    type: 'invalid_request_error',
    param,
    code: 'item_not_found',
    message: `Item with id '${id}' not found: it is not part of a stored response.`,
  });
}

/** A 400: only a background response still running here can be cancelled. */
export function responseNotRunning(id: string): ProxyError {
  return new ProxyError({
    status: 400,
    type: 'invalid_request_error',
    param: null,
    code: null,
    message: `Response '${id}' is not running in the background here: only a background response still in progress can be cancelled (by the instance running it).`,
  });
}

/**
 * A 503 `store_unavailable`: the response store (Redis) could not be reached, or did not answer
 * within its command timeout; a request that needs no store is still served.
 */
export function storeUnavailable(why: string): ProxyError {
  return new ProxyError({
    status: 503,
    type: 'server_error',
    param: null,
    code: 'store_unavailable',
    message: `The response store is unavailable (${why}); try again shortly.`,
  });
}

/** The abort reason of a cancelled background run (its stored status is already `cancelled`); it never reaches a caller. */
export function responseCancelled(): ProxyError {
  return new ProxyError({
    status: 499,
    type: 'invalid_request_error',
    param: null,
    code: 'response_cancelled',
    message: 'The response was cancelled.',
  });
}

// ---- The proxy and its local backends ----

/** A 503 `backend_unavailable`: the runtime (backends, validators, models) failed to start, so nothing can be served. */
export function backendUnavailable(startError: unknown): ProxyError {
  return new ProxyError({
    status: 503,
    type: 'server_error',
    code: 'backend_unavailable',
    message: `The proxy failed to start: ${(startError as Error)?.message ?? String(startError)}`,
  });
}

/** A 503 `shutting_down`: a request reached the llama.cpp backend while it closes (or was in flight when it did). */
export function localModelShuttingDown(): ProxyError {
  return new ProxyError({ status: 503, type: 'server_error', code: 'shutting_down', message: 'The local model is shutting down.' });
}

/** A 503 `shutting_down`: the proxy is stopping and its grace period for requests in flight is over. */
export function proxyShuttingDown(): ProxyError {
  return new ProxyError({
    status: 503,
    type: 'server_error',
    code: 'shutting_down',
    message: 'The proxy is shutting down; send the request again.',
  });
}

/** A 503 `worker_crashed`: the llama.cpp worker process died under the request; it is being restarted. */
export function workerCrashed(message: string, cause: unknown): ProxyError {
  return new ProxyError({ status: 503, type: 'server_error', code: 'worker_crashed', message, cause });
}

// ---- The upstream backend ----

/**
 * A 502 `upstream_unreachable`: no HTTP answer at all (refused, DNS, reset, TLS).
 * Messages name the host only, never the URL.
 * @example upstreamUnreachable('Could not reach the upstream backend localhost:8000: connection refused.', error)
 */
export function upstreamUnreachable(message: string, cause: unknown): ProxyError {
  return new ProxyError({ status: 502, type: 'upstream_error', code: 'upstream_unreachable', message, cause });
}

/**
 * A 502 `upstream_stream_interrupted`: the backend had answered 200 and its
 * stream then broke off (connection reset or closed), so part of the answer may
 * already have reached the caller.
 */
export function upstreamStreamInterrupted(host: string, how: string, cause: unknown): ProxyError {
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: 'upstream_stream_interrupted',
    message: `The upstream backend ${host} broke off its stream: ${how}.`,
    cause,
  });
}

/** A replica's state, in words. */
const REPLICA_STATE: Readonly<Record<string, string>> = {
  healthy: 'in service',
  down: 'out of service: its health probe fails',
  ejected: 'out of service: ejected after failed requests',
};

/**
 * A pool's failure (a backend with `urls`): the last try failed as a replica fails (no answer, a
 * 5xx), and the message names every replica tried with what it met, and those left untried with
 * their state. Status, type, code and Retry-After stay the last try's (502 unreachable, 504 timeout,
 * 502 upstream_overloaded...), so fallbacks, logs and metrics read it as before.
 * @example replicasFailed({ backend: 'gpu', tried: [{ replica: 'http://gpu-1:8000/v1', met: 'connection refused', state: 'down' }], untried: [], last }).message
 * // 'Backend "gpu": no replica could take the request (none was in service, so each was tried anyway). Tried http://gpu-1:8000/v1 (connection refused; out of service: its health probe fails).'
 */
export function replicasFailed({
  backend,
  tried,
  untried,
  last,
}: {
  backend: string;
  tried: readonly { replica: string; met: string; state?: string }[];
  untried: readonly { replica: string; state: string }[];
  last: ProxyError;
}): ProxyError {
  const triedWords = tried.map(
    ({ replica, met, state }) => `${replica} (${met}${state === undefined ? '' : `; ${REPLICA_STATE[state] ?? state}`})`,
  );
  const untriedWords = untried.map(({ replica, state }) => `${replica} (${REPLICA_STATE[state] ?? state})`);
  const noneInService = tried.every(({ state }) => state !== undefined) && untried.every(({ state }) => state !== 'healthy');
  return new ProxyError({
    status: last.status,
    type: last.type,
    code: last.code,
    message:
      `Backend "${backend}": no replica could take the request${noneInService ? ' (none was in service, so each was tried anyway)' : ''}. ` +
      `Tried ${triedWords.join(', ')}${untriedWords.length > 0 ? `; not tried (the retries were spent): ${untriedWords.join(', ')}` : ''}.`,
    ...(last.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: last.retryAfterSeconds }),
    cause: last,
  });
}

/**
 * A 429 `backend_busy`: the backend's `maxConcurrent` requests are in flight and its queue is full.
 * @example backendBusy('gpu-pool').retryAfterSeconds // 1
 */
export function backendBusy(backend: string): ProxyError {
  return new ProxyError({
    status: 429,
    type: 'rate_limit_error',
    code: 'backend_busy',
    message: `Backend "${backend}" is at its concurrency limit and its queue is full; retry shortly.`,
    retryAfterSeconds: 1,
  });
}

/** A 502 with no code: the pass-through relay (`/v1/*` paths the proxy does not translate) could not reach its backend. */
export function passthroughUnreachable(): ProxyError {
  return new ProxyError({ status: 502, type: 'upstream_error', message: 'The pass-through backend could not be reached.' });
}

/**
 * A 504 `upstream_timeout`: the upstream did not answer in time, by a deadline of
 * ours (`timeouts`), a socket timeout, or its own 408/504.
 * @example upstreamTimeout('The upstream backend localhost:8000 did not answer in time.', reason)
 */
export function upstreamTimeout(message: string, cause?: unknown): ProxyError {
  return new ProxyError({ status: 504, type: 'timeout_error', code: 'upstream_timeout', message, cause });
}

/**
 * A 502 `upstream_auth_failed`: the upstream answered 401/403 to the proxy's own
 * credentials. The caller cannot fix that, and the upstream's text may quote the
 * key, so the message is ours.
 */
export function upstreamAuthFailed(httpStatus: number): ProxyError {
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: 'upstream_auth_failed',
    message: `The upstream backend rejected the proxy's credentials (HTTP ${httpStatus}); check the backend's apiKey.`,
  });
}

/** The endpoints the proxy posts to under a backend's `url` (OpenAI's two, Anthropic's one). */
const ENDPOINT_PATH = /\/(?:chat\/completions|completions|messages)$/;

/**
 * A 502 `upstream_endpoint_not_found`: the backend answered 404 for the endpoint itself, not for
 * the model (map-upstream-error.ts decides which), so the backend's `url` is wrong and the caller
 * can do nothing about it. Names the backend and the URL tried (origin and path only: no
 * credentials, no query), with the likely fix: a `url` without `/v1`, or a server that does not
 * serve this endpoint (`speaks`).
 * @example upstreamEndpointNotFound({ backend: 'vllm', url: 'http://gpu-1:8000/chat/completions', upstreamMessage: 'Not Found' }).message
 * // 'Backend "vllm" answered HTTP 404 (Not Found) for POST http://gpu-1:8000/chat/completions: no such endpoint there, so the request never reached a model. Its url probably needs to end in /v1 (http://gpu-1:8000/v1).'
 */
export function upstreamEndpointNotFound({
  backend,
  url,
  upstreamMessage,
}: {
  backend?: string;
  url?: string;
  upstreamMessage: string;
}): ProxyError {
  let where = '';
  let hint = "Check the backend's url.";
  try {
    const parsed = new URL(url ?? '');
    const path = parsed.pathname.replace(/\/+$/, '');
    where = ` for POST ${parsed.origin}${path}`;
    const endpoint = ENDPOINT_PATH.exec(path)?.[0];
    // Another path (a tokenizer's, /tokenize) says nothing of where the url should end: the hint stays general.
    if (endpoint) {
      const base = path.slice(0, -endpoint.length);
      hint = /\/v1$/.test(base)
        ? `Check its url, and its speaks: this server may not serve ${endpoint}.`
        : `Its url probably needs to end in /v1 (${parsed.origin}${base}/v1).`;
    }
  } catch {
    // No URL (or not one): the hint stays general.
  }
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: 'upstream_endpoint_not_found',
    message: `${backend === undefined ? 'The upstream backend' : `Backend "${backend}"`} answered HTTP 404 (${upstreamMessage})${where}: no such endpoint there, so the request never reached a model. ${hint}`,
  });
}

/**
 * A 502 `upstream_error`: an upstream HTTP status that no other mapping covers,
 * mostly 5xx; or, with no status, an error inside a 200 answer (a stream's error
 * frame). `upstreamMessage` is already redacted and clipped.
 * @example upstreamError(500, 'tools param requires --jinja flag').message // 'The upstream backend failed with HTTP 500: tools param requires --jinja flag'
 * @example upstreamError(undefined, 'slot crashed').message // 'The upstream backend answered with an error: slot crashed'
 */
export function upstreamError(httpStatus: number | undefined, upstreamMessage: string, retryAfterSeconds?: number): ProxyError {
  const failed = httpStatus === undefined ? 'answered with an error' : `failed with HTTP ${httpStatus}`;
  // 503, or Anthropic's 529: the backend is up but too busy now, which a caller may wait out.
  const overloaded = httpStatus === 503 || httpStatus === 529;
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: overloaded ? 'upstream_overloaded' : 'upstream_error',
    message: `The upstream backend ${failed}: ${upstreamMessage}`,
    retryAfterSeconds,
  });
}

/**
 * A 502 `upstream_bad_response`: the upstream answered 2xx with something we
 * cannot read (not JSON, not a completion, JSON to a stream request).
 * @example upstreamBadResponse('The upstream stream sent a chunk that is not JSON.')
 */
export function upstreamBadResponse(message: string): ProxyError {
  return new ProxyError({ status: 502, type: 'upstream_error', code: 'upstream_bad_response', message });
}

/**
 * A 502 `upstream_stream_truncated`: the upstream stream ended before every choice finished.
 * @example upstreamStreamTruncated('without sending any chunk').message // 'The upstream stream ended without sending any chunk.'
 */
export function upstreamStreamTruncated(what: string): ProxyError {
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: 'upstream_stream_truncated',
    message: `The upstream stream ended ${what}.`,
  });
}

/** A 502 `echo_unavailable`: completions `echo`/`echo_last` asked for echoed prompt text the backend's output cannot give. */
export function echoUnavailable(message: string, param: 'echo' | 'echo_last' | null = null): ProxyError {
  return new ProxyError({ status: 502, type: 'upstream_error', code: 'echo_unavailable', param, message });
}

/**
 * A 502 `too_many_function_calls` on `functions`: the model made several calls,
 * but the legacy `functions` API has room for one; dropping the rest would lose them.
 */
export function tooManyFunctionCalls(count: number): ProxyError {
  return new ProxyError({
    status: 502,
    type: 'upstream_error',
    code: 'too_many_function_calls',
    param: 'functions',
    message: `The model made ${count} function calls, but the legacy \`functions\` API returns only one; use \`tools\` instead.`,
  });
}

/** A dialect stream's output before `response-start` (which gives every chunk its id): a bug of the proxy. */
export function missingStart(): ProxyError {
  return internalError('The stream produced output before its response-start event.');
}
