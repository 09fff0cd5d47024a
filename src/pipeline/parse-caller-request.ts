/** A caller's body -> the neutral request: shape checked against our OpenAPI document first, then the dialect's tables. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect } from '../dialects/dialect.js';
import { ProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { RequestValidator } from '../validation/create-validator.js';

export function parseCallerRequest(validator: RequestValidator, dialect: Dialect, body: unknown, headers: IncomingHttpHeaders = {}): NeutralRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProxyError({ status: dialect.validationStatus, type: 'invalid_request_error', message: 'The request body must be a JSON object.' });
  }
  const issues = validator.validate(dialect.endpoint, body);
  if (issues.length > 0) {
    const [first] = issues;
    throw new ProxyError({
      status: dialect.validationStatus,
      type: 'invalid_request_error',
      param: first.param,
      code: first.type === 'extra_forbidden' ? 'unknown_parameter' : 'invalid_value',
      message: issues.map((issue) => issue.message).join('; '),
      details: issues.map((issue) => ({ loc: issue.loc, msg: issue.message, type: issue.type })),
    });
  }
  return dialect.parseRequest(body as Record<string, unknown>, headers);
}
