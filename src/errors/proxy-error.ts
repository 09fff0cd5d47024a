/**
 * ProxyError is the only error type that crosses module boundaries. Its body is
 * OpenAI's error shape; the completions dialect adds Fireworks' `detail` list.
 * The named refusals built from it are in catalogue.ts.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'server_error'
  | 'upstream_error'
  | 'timeout_error';

export interface ErrorDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ProxyErrorOptions {
  status: number;
  message: string;
  type: ErrorType;
  param?: string | null;
  code?: string | null;
  retryAfterSeconds?: number;
  details?: ErrorDetail[];
  cause?: unknown;
}

export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
  detail?: ErrorDetail[];
}

export class ProxyError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param: string | null;
  readonly code: string | null;
  readonly retryAfterSeconds?: number;
  readonly details?: ErrorDetail[];

  constructor(options: ProxyErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'ProxyError';
    this.status = options.status;
    this.type = options.type;
    this.param = options.param ?? null;
    this.code = options.code ?? null;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.details) this.details = options.details;
  }

  /**
   * This error naming another field (or none), with another code if given: an upstream's refusal
   * as the caller should read it. `details` describe the old field, so they go; the original is the cause.
   */
  withParam(param: string | null, code: string | null = this.code): ProxyError {
    return new ProxyError({
      status: this.status,
      type: this.type,
      message: this.message,
      param,
      code,
      ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      cause: this,
    });
  }

  /** OpenAI's `{error: {...}}`; with `withDetail`, Fireworks' FastAPI-style `detail` list too. */
  toBody(withDetail = false): OpenAIErrorBody {
    const body: OpenAIErrorBody = {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
    if (withDetail) {
      body.detail = this.details ?? [
        { loc: this.param ? ['body', ...this.param.split('.')] : ['body'], msg: this.message, type: this.code ?? this.type },
      ];
    }
    return body;
  }
}

/** A 400 naming the offending field. */
export function invalidRequest(param: string | null, message: string, code: string | null = null): ProxyError {
  return new ProxyError({ status: 400, type: 'invalid_request_error', param, code, message });
}

/** A 400 for a field the backend cannot take: `code: unsupported_parameter`. */
export function unsupportedParameter(param: string, message: string): ProxyError {
  return invalidRequest(param, message, 'unsupported_parameter');
}

/**
 * A 500 `internal_error`: the proxy broke one of its own rules (a bug, not the
 * caller's or the backend's fault). Here rather than in catalogue.ts because
 * toProxyError needs it and the catalogue imports this file.
 * @example internalError('The stream produced output before its response-start event.')
 */
export function internalError(message: string, cause?: unknown): ProxyError {
  return new ProxyError({ status: 500, type: 'server_error', code: 'internal_error', message, cause });
}

/** A 499 `client_closed_request`: the caller went away (or aborted) before the answer was done. */
export function clientClosedRequest(): ProxyError {
  return new ProxyError({ status: 499, type: 'server_error', code: 'client_closed_request', message: 'The request was cancelled.' });
}

/** What a failure stands for: the proxy's own abort reason (shutting down) when it aborted with one, else what was thrown. */
export function failureOf(thrown: unknown, signal?: AbortSignal): ProxyError {
  return signal?.reason instanceof ProxyError ? signal.reason : toProxyError(thrown);
}

/** Wraps anything thrown into a ProxyError without leaking internals. */
export function toProxyError(error: unknown): ProxyError {
  if (error instanceof ProxyError) return error;
  if (error instanceof Error && error.name === 'AbortError') return clientClosedRequest();
  return internalError('The proxy failed to handle this request.', error);
}
