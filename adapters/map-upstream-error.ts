/**
 * An upstream HTTP error (status + body) -> the ProxyError the caller sees.
 * Bodies come in many shapes: OpenAI `{error: {message, type, param, code}}`,
 * llama.cpp `{error: {code: 400, message, type}}`, FastAPI `{detail: ...}`,
 * `{error: "text"}`, or not JSON at all. Google's error model (`error.details`, google.rpc)
 * adds the field at fault (`BadRequest.fieldViolations`) and the wait a 429 asks for
 * (`RetryInfo.retryDelay`), which Google sends instead of a `Retry-After` header.
 */
import { isRecord } from '../src/model/is-record.js';
import { upstreamAuthFailed, upstreamEndpointNotFound, upstreamError, upstreamTimeout } from '../src/errors/catalogue.js';
import { ProxyError, invalidRequest, type ErrorDetail } from '../src/errors/proxy-error.js';
import { maskSecrets } from './mask-secrets.js';

export interface UpstreamFailure {
  status: number;
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body text, or an already parsed body (a streamed `{error}` frame). */
  body: unknown;
  /** Strings that must never appear in a message (the backend's API key). */
  secrets?: readonly string[];
  /** The error came inside a 200 answer (a stream's error frame): `status` is the frame's, or a default, not the HTTP status. */
  inAnswer?: boolean;
  /** The URL posted to, and the backend's name: an error about the endpoint itself names them. */
  url?: string;
  backend?: string;
}

interface ParsedError {
  message?: string;
  param?: string;
  code?: string;
  details?: ErrorDetail[];
  /** Google's `RetryInfo.retryDelay`, in whole seconds. */
  retryAfterSeconds?: number;
}

const MAX_MESSAGE = 500;
/** What an endpoint's 404 quotes of the upstream's words: its own message says the rest. */
const SHORT_MESSAGE = 120;

export function mapUpstreamError(failure: UpstreamFailure): ProxyError {
  const { status } = failure;
  const parsed = parseErrorBody(failure.body);
  const message = parsed.message === undefined ? undefined : clip(redact(parsed.message, failure.secrets));
  const upstream = message ?? (failure.inAnswer ? 'an error with no message' : `HTTP ${status} with no error message`);

  if (status === 401 || status === 403) {
    // The proxy's own credentials failed: the caller cannot fix that, and the upstream text may quote the key.
    return upstreamAuthFailed(status);
  }
  if (status === 429) {
    return new ProxyError({
      status: 429,
      type: 'rate_limit_error',
      code: parsed.code ?? 'rate_limit_exceeded',
      message: upstream,
      retryAfterSeconds: retryAfter(failure.headers) ?? parsed.retryAfterSeconds,
    });
  }
  if (status === 400) {
    return invalidRequest(parsed.param ?? null, upstream, parsed.code);
  }
  if (status === 404) {
    if (!failure.inAnswer && !namesModel(parsed)) {
      return upstreamEndpointNotFound({
        ...(failure.backend === undefined ? {} : { backend: failure.backend }),
        ...(failure.url === undefined ? {} : { url: failure.url }),
        upstreamMessage: clip(plainText(redact(parsed.message ?? '', failure.secrets)), SHORT_MESSAGE) || 'no error message',
      });
    }
    return new ProxyError({ status: 404, type: 'not_found_error', param: parsed.param, code: parsed.code, message: upstream });
  }
  if (status === 413) {
    return invalidRequest(null, `The upstream backend found the request too large: ${upstream}`, parsed.code ?? 'request_too_large');
  }
  if (status === 422) {
    // FastAPI validation (Fireworks): keep the `detail` list so the completions dialect can relay it.
    return new ProxyError({
      status: 422,
      type: 'invalid_request_error',
      param: parsed.param,
      code: parsed.code,
      message: upstream,
      details: parsed.details,
    });
  }
  if (status === 408 || status === 504) {
    return upstreamTimeout(`The upstream backend timed out${failure.inAnswer ? '' : ` (HTTP ${status})`}: ${upstream}`);
  }
  return upstreamError(failure.inAnswer ? undefined : status, upstream, retryAfter(failure.headers) ?? parsed.retryAfterSeconds);
}

function parseErrorBody(body: unknown): ParsedError {
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      const text = body.trim();
      return text ? { message: text } : {};
    }
  }
  if (!isRecord(value)) return typeof value === 'string' && value ? { message: value } : {};

  const error = value.error;
  if (isRecord(error)) {
    const google = Array.isArray(error.details) ? googleDetails(error.details) : {};
    return {
      message: typeof error.message === 'string' ? error.message : undefined,
      param: typeof error.param === 'string' ? error.param : google.param,
      // llama.cpp puts the HTTP status in `code` as a number: not a code worth keeping.
      code: typeof error.code === 'string' ? error.code : undefined,
      ...(google.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: google.retryAfterSeconds }),
    };
  }
  if (typeof error === 'string') return { message: error };
  if (typeof value.detail === 'string') return { message: value.detail };
  if (Array.isArray(value.detail)) return fromFastApiDetail(value.detail);
  if (typeof value.message === 'string') return { message: value.message };
  return {};
}

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/**
 * The first field violation's field (in the backend's own names: `generation_config.temperature`)
 * and the retry delay (`"37s"`, `"2.5s"`), from Google's `error.details`.
 */
function googleDetails(details: unknown[]): Pick<ParsedError, 'param' | 'retryAfterSeconds'> {
  const found: Pick<ParsedError, 'param' | 'retryAfterSeconds'> = {};
  for (const detail of details) {
    if (!isRecord(detail)) continue;
    if (detail['@type'] === RETRY_INFO && typeof detail.retryDelay === 'string') {
      const seconds = Number(/^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay)?.[1]);
      if (Number.isFinite(seconds)) found.retryAfterSeconds = Math.ceil(seconds);
    }
    if (detail['@type'] === BAD_REQUEST && Array.isArray(detail.fieldViolations) && found.param === undefined) {
      const first: unknown = detail.fieldViolations[0];
      if (isRecord(first) && typeof first.field === 'string' && first.field) found.param = first.field;
    }
  }
  return found;
}

function fromFastApiDetail(detail: unknown[]): ParsedError {
  const details: ErrorDetail[] = detail.filter(isRecord).map((item) => ({
    loc: Array.isArray(item.loc)
      ? item.loc.filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
      : [],
    msg: typeof item.msg === 'string' ? item.msg : 'invalid value',
    type: typeof item.type === 'string' ? item.type : 'value_error',
  }));
  if (details.length === 0) return {};
  const first = details[0];
  const path = first.loc[0] === 'body' ? first.loc.slice(1) : first.loc;
  return {
    message: details.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; '),
    param: path.length > 0 ? path.join('.') : undefined,
    details,
  };
}

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, as whole seconds. */
function retryAfter(headers: UpstreamFailure['headers']): number | undefined {
  const ms = Number(header(headers, 'retry-after-ms'));
  if (header(headers, 'retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = header(headers, 'retry-after');
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function header(headers: UpstreamFailure['headers'], name: string): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function redact(message: string, secrets: readonly string[] = []): string {
  return maskSecrets(
    message,
    secrets.filter((secret) => secret.length > 0),
  );
}

function clip(text: string, max = MAX_MESSAGE): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/**
 * Whether a 404 is about the model rather than the endpoint. A 404 to a POST of a completion
 * endpoint is the request's own only when the body names the model: OpenAI's `model_not_found`,
 * vLLM's "The model `x` does not exist.", Anthropic's "model: claude-x", Fireworks' "Model not
 * found", Ollama's 'model "x" not found'. Any other 404 ("Not Found", llama-server's "File Not
 * Found", OpenAI's "Invalid URL (POST /chat/completions)", an HTML page, an empty body) is for the
 * path itself: the backend's url is wrong (mostly a missing /v1), which the caller cannot fix.
 */
function namesModel(parsed: ParsedError): boolean {
  return (
    parsed.param === 'model' ||
    /model/i.test(parsed.code ?? '') ||
    (parsed.message !== undefined && /\bmodel\b/i.test(plainText(parsed.message)))
  );
}

/** An HTML error page as its words (`<h1>404 Not Found</h1>` -> `404 Not Found`). */
function plainText(text: string): string {
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * An error reported inside a body rather than by the HTTP status: a streamed
 * `data: {"error": {...}}` frame, or a 200 whose body is `{error}`. llama.cpp
 * and vLLM put the HTTP status in `error.code`; anything else counts as a 500.
 * @example mapErrorFrame({error: {code: 500, message: 'tools param requires --jinja flag', type: 'server_error'}}) // 502 upstream_error
 */
export function mapErrorFrame(body: Record<string, unknown>, secrets?: readonly string[]): ProxyError {
  const error = isRecord(body.error) ? body.error : {};
  const status =
    [error.code, error.status, body.status].find((value): value is number => typeof value === 'number' && value >= 400 && value <= 599) ??
    500;
  return mapUpstreamError({ status, body, secrets, inAnswer: true });
}
