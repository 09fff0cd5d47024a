/** A caller's body -> the neutral request: shape checked against our OpenAPI document first, then the dialect's tables. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect } from '../../dialects/dialect.js';
import { bodyNotAnObject } from '../../errors/catalogue.js';
import { failedValidation } from '../../validation/validation-issue.js';
import type { NeutralRequest } from '../../model/request.js';
import type { RequestValidator } from '../../validation/create-validator.js';

export function parseCallerRequest(
  validator: RequestValidator,
  dialect: Dialect,
  body: unknown,
  headers: IncomingHttpHeaders = {},
): NeutralRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw bodyNotAnObject(dialect.validationStatus);
  }
  const issues = validator.validate(dialect.document, body);
  if (issues.length > 0) throw failedValidation(dialect.validationStatus, issues);
  return dialect.parseRequest(body as Record<string, unknown>, headers);
}
