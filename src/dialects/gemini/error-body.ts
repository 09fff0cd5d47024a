/**
 * Errors as Google's APIs answer them (google.rpc.Status as JSON): `{error: {code, message, status}}`,
 * the caller's field in `details` as a `google.rpc.BadRequest` with `fieldViolations`, which the SDKs
 * show and `@google/genai` raises as an `ApiError` with the HTTP code.
 */
import type { ProxyError } from '../../errors/proxy-error.js';

/** google.rpc.Code names by HTTP status (google/rpc/code.proto's mapping). */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'UNIMPLEMENTED',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  426: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

/** A backend too busy now (Anthropic's 529, a full queue): Google's overloaded answer, 503 UNAVAILABLE, which its clients retry. */
const BUSY = new Set(['backend_busy', 'upstream_overloaded']);

/** The HTTP status of an error as sent (a client that went away, 499, is answered as Google would: 400). */
export function geminiStatusCode(error: ProxyError): number {
  if (error.code !== null && BUSY.has(error.code)) return 503;
  return error.status === 499 ? 400 : error.status;
}

export function geminiStatusName(code: number): string {
  return STATUS_NAMES[code] ?? (code < 500 ? 'FAILED_PRECONDITION' : 'INTERNAL');
}

export function geminiErrorBody(error: ProxyError): Record<string, unknown> {
  const code = geminiStatusCode(error);
  const { param, message } = error;
  const named = param && !message.includes(param) ? `${param}: ${message}` : message;
  const violations = fieldViolations(error);
  return {
    error: {
      code,
      message: named,
      status: geminiStatusName(code),
      ...(violations.length > 0 ? { details: [{ '@type': BAD_REQUEST, fieldViolations: violations }] } : {}),
    },
  };
}

/** Each problem validation found (its location in the body), or else the one field the error names. */
function fieldViolations(error: ProxyError): { field: string; description: string }[] {
  const fromDetails = (error.details ?? [])
    .map(({ loc, msg }) => ({ field: fieldOf(loc.filter((step) => step !== 'body')), description: msg }))
    .filter(({ field }) => field !== '');
  if (fromDetails.length > 0) return fromDetails;
  return error.param ? [{ field: error.param, description: error.message }] : [];
}

/** `['contents', 0, 'parts']` -> `contents[0].parts`. */
function fieldOf(loc: readonly (string | number)[]): string {
  return loc.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
}
