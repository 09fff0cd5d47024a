/**
 * Errors as Anthropic's API answers them: `{type: "error", error: {type, message}}`,
 * with its status map. A busy or unavailable backend is a 529 `overloaded_error`,
 * which Anthropic's clients retry as they would Anthropic's own.
 */
import type { ProxyError } from '../../errors/proxy-error.js';

type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error';

const BY_STATUS: Readonly<Record<number, AnthropicErrorType>> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const OVERLOADED = 529;

/** A full queue, a backend too busy now or one that cannot serve yet: Anthropic's overloaded status, which its clients wait out. */
const BUSY = new Set(['backend_busy', 'upstream_overloaded']);

export function messagesErrorStatus(error: ProxyError): number {
  return error.status === 503 || (error.code !== null && BUSY.has(error.code)) ? OVERLOADED : error.status;
}

export function messagesErrorType(error: ProxyError): AnthropicErrorType {
  const status = messagesErrorStatus(error);
  return BY_STATUS[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
}

/** The body has no `param`: a message that does not name the caller's field (an upstream's words) is prefixed with it. */
export function messagesErrorBody(error: ProxyError): Record<string, unknown> {
  const { param, message } = error;
  const named = param && !message.includes(param) ? `${param}: ${message}` : message;
  return { type: 'error', error: { type: messagesErrorType(error), message: named } };
}
