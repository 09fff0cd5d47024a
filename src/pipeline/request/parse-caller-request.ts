/** A caller's body -> the neutral request: shape checked against our OpenAPI document first, then the dialect's tables. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect, DialectContext } from '../../dialects/dialect.js';
import { bodyNotAnObject } from '../../errors/catalogue.js';
import { failedValidation } from '../../validation/validation-issue.js';
import type { NeutralRequest } from '../../model/request.js';
import type { RequestValidator } from '../../validation/create-validator.js';
import { dialectOfBody } from '../../dialects/dialect-of-body.js';
import { titleWithArticle } from '../../dialects/title-with-article.js';
import type { ProxyError } from '../../errors/proxy-error.js';

export function parseCallerRequest(
  validator: RequestValidator,
  dialect: Dialect,
  body: unknown,
  headers: IncomingHttpHeaders = {},
  context?: DialectContext,
): NeutralRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw bodyNotAnObject(dialect.validationStatus);
  }
  const named = dialect.normalizeBody ? dialect.normalizeBody(body as Record<string, unknown>) : (body as Record<string, unknown>);
  const issues = validator.validate(dialect.document, named);
  if (issues.length > 0) throw withEndpointHint(failedValidation(dialect.validationStatus, issues), dialect, named);
  return dialect.parseRequest(named, headers, context);
}

/**
 * A refused body in another dialect's shape (a Responses body sent to /v1/chat/completions): the
 * refusal starts by saying where it goes, since its field-by-field reasons only say it is not this one.
 */
function withEndpointHint(error: ProxyError, dialect: Dialect, body: unknown): ProxyError {
  const looksLike = dialectOfBody(body);
  if (!looksLike || looksLike.name === dialect.name) return error;
  error.message =
    `This looks like ${titleWithArticle(looksLike)} request: send it to ${looksLike.path} ` +
    `(${dialect.path} takes ${dialect.title} requests). ${error.message}`;
  return error;
}
