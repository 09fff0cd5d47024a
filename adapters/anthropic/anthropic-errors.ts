/**
 * Anthropic's errors, `{type: 'error', error: {type, message}}`, as the caller
 * sees them. The shared mapping (map-upstream-error.ts) reads the HTTP status
 * and the message; a 529 (`overloaded_error`) is, as a 503 is, `upstream_overloaded`
 * (the catalogue's upstreamError), retried as one (retry-policy.ts). This adds
 * what Anthropic says in its own way:
 *  - an error event inside a stream: its `error.type` stands for the HTTP status
 *    (`overloaded_error` is the same error as a 529);
 *  - a 400 names the field at the head of its message (`temperature: Input should
 *    be ...`, `messages.1.content.0: ...`): that is its `param`, which the plan
 *    renames to the caller's field (caller-errors.ts);
 *  - `prompt is too long`: the caller's messages, code `context_length_exceeded`.
 */
import { upstreamError } from '../../src/errors/catalogue.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { mapUpstreamError } from '../map-upstream-error.js';

/** Anthropic's error types, by the HTTP status it answers each with. */
const STATUS_OF: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/** A field path at the head of a message: `max_tokens: Field required`. */
const FIELD = /^([A-Za-z_]\w*(?:\.\w+)*): /;
const TOO_LONG = /prompt is too long/i;

/**
 * An error inside an answer: a stream's `error` event, or a 200 whose body is an error.
 * @example mapErrorEvent({type: 'error', error: {type: 'overloaded_error', message: 'Overloaded'}}, request).code // 'upstream_overloaded'
 */
export function mapErrorEvent(body: Record<string, unknown>, request: NeutralRequest, secrets?: readonly string[]): ProxyError {
  const error = isRecord(body.error) ? body.error : {};
  const status = (typeof error.type === 'string' && STATUS_OF[error.type]) || 500;
  const mapped = mapUpstreamError({ status, body, secrets, inAnswer: true });
  if (status !== 529) return refineError(mapped, request);
  // The catalogue's 529, with the words of an error inside an answer.
  const like = upstreamError(529, '');
  return new ProxyError({ status: like.status, type: like.type, code: like.code, message: mapped.message });
}

/**
 * The shared mapping's error, refined for what Anthropic says (see the file's comment).
 * @example refineError(invalidRequest(null, 'temperature: Input should be less than or equal to 1'), request).param // 'temperature'
 */
export function refineError(error: ProxyError, request: NeutralRequest): ProxyError {
  if (error.param !== null || (error.status !== 400 && error.status !== 404 && error.status !== 413)) return error;
  if (TOO_LONG.test(error.message)) {
    return error.withParam(request.origins.messages ?? request.origins.prompt ?? null, 'context_length_exceeded');
  }
  const field = FIELD.exec(error.message)?.[1];
  // `messages.1.content.0` -> `messages[1].content[0]`; the plan renames it to the caller's field, or to none.
  return field === undefined ? error : error.withParam(field.replace(/\.(\d+)(?=\.|$)/g, '[$1]'));
}
