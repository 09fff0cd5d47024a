/**
 * Gemini's errors, `{error: {code, message, status, details}}` (Google's API error
 * shape), as the caller sees them. The shared mapping (map-upstream-error.ts) reads
 * the HTTP status and the message; a 429 (`RESOURCE_EXHAUSTED`) and the 5xx are
 * retried as for every kind (retry-policy.ts). This adds what Gemini says its own way:
 *  - an error inside an answer (a stream's `data: {error}` frame): its `code`, else its
 *    `status` name, stands for the HTTP status;
 *  - a bad key is a 400 `API key not valid` (INVALID_ARGUMENT), not a 401: it is the
 *    proxy's credentials that failed, which the caller cannot fix;
 *  - `exceeds the maximum number of tokens`: the caller's messages, code `context_length_exceeded`;
 *  - the field at fault, which Google names by its proto name (a field violation's
 *    `generation_config.temperature`, or `at 'generation_config'` in the message), is
 *    given by the wire body's name, for the plan to map back to the caller's field.
 */
import { upstreamAuthFailed, upstreamError } from '../../src/errors/catalogue.js';
import { ProxyError } from '../../src/errors/proxy-error.js';
import { isRecord } from '../../src/model/is-record.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { mapUpstreamError } from '../map-upstream-error.js';

/** Google's canonical error names, by the HTTP status each comes with. */
const STATUS_OF: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNKNOWN: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

const BAD_KEY = /API key not valid|API_KEY_INVALID/i;
const TOO_LONG = /exceeds the maximum number of tokens/i;

/**
 * An error inside an answer: a stream's error frame, or a 200 whose body is an error.
 * @example mapErrorBody({error: {code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE'}}, request).code // 'upstream_overloaded'
 */
export function mapErrorBody(body: Record<string, unknown>, request: NeutralRequest, secrets?: readonly string[]): ProxyError {
  const error = isRecord(body.error) ? body.error : {};
  const status =
    (typeof error.code === 'number' && error.code >= 400 && error.code <= 599 && error.code) ||
    (typeof error.status === 'string' && STATUS_OF[error.status]) ||
    500;
  const mapped = mapUpstreamError({ status, body, secrets, inAnswer: true });
  if (status !== 503) return refineError(mapped, request);
  // The catalogue's 503 (overloaded: a caller may wait it out), with the words of an error inside an answer.
  const like = upstreamError(503, '');
  return new ProxyError({ status: like.status, type: like.type, code: like.code, message: mapped.message });
}

/**
 * The shared mapping's error, refined for what Gemini says (see the file's comment).
 * @example refineError(invalidRequest(null, 'API key not valid. Please pass a valid API key.'), request).code // 'upstream_auth_failed'
 */
export function refineError(error: ProxyError, request: NeutralRequest): ProxyError {
  if (error.status !== 400) return error;
  if (error.param !== null) return error.withParam(wireName(error.param));
  if (BAD_KEY.test(error.message)) return upstreamAuthFailed(400);
  if (TOO_LONG.test(error.message))
    return error.withParam(request.origins.messages ?? request.origins.prompt ?? null, 'context_length_exceeded');
  const named = FIELD_IN_MESSAGE.exec(error.message)?.slice(1).find(Boolean);
  return named === undefined ? error : error.withParam(wireName(named));
}

/** `Invalid value at 'generation_config.temperature'`, `* GenerateContentRequest.contents[1].parts: ...` */
const FIELD_IN_MESSAGE = /at '([\w.[\]]+)'|GenerateContentRequest\.([\w.[\]]+):/;

/** The request's top-level fields in Google's proto names and JSON names: a param under none is the proxy's own. */
const GOOGLE_FIELD =
  /^(contents|system_?[iI]nstruction|tools|tool_?[cC]onfig|generation_?[cC]onfig|safety_?[sS]ettings|cached_?[cC]ontent|labels)\b/;

/**
 * A proto path as the wire body names it: `generation_config.thinking_config` ->
 * `generationConfig.thinkingConfig`. The conversation is the caller's messages and
 * a tool's schema its tools, whatever index Google gives (the wire's do not match the caller's).
 * A param that is not Google's (the kind's own refusal names the caller's field) is left as it is.
 * @example wireName('contents[2].parts[0].function_response') // 'messages'
 */
export function wireName(path: string): string {
  if (!GOOGLE_FIELD.test(path)) return path;
  const name = path.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  if (/^(contents|systemInstruction)\b/.test(name)) return 'messages';
  if (/^tools\b/.test(name)) return 'tools';
  return name;
}
