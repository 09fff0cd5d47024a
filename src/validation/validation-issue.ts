import { ProxyError } from '../errors/proxy-error.js';

/**
 * One problem with a request body, named the way both dialects report it.
 *
 * @example
 * { param: 'messages[0].role', loc: ['body', 'messages', 0, 'role'], type: 'enum',
 *   message: "messages[0].role: must be one of: 'developer', 'system', 'user', 'assistant', 'tool', 'function'; got 'bot'" }
 */
export interface ValidationIssue {
  /** OpenAI's `param`: dotted/bracket path (`stream_options.buffer_mode`); '' for the body itself. */
  param: string;
  /** A sentence a human can act on; starts with the param. */
  message: string;
  /** Fireworks/FastAPI location: `['body', 'messages', 0, 'role']`. */
  loc: (string | number)[];
  /**
   * Short machine type: `missing`, `extra_forbidden`, `type_error`, `enum`, `range`,
   * `too_short`, `too_long`, `format`, or `invalid` (anything else).
   */
  type: string;
}

/** Validates wire bodies against our own OpenAPI documents; built once at start-up. */
export interface RequestValidator {
  /**
   * Loads a document's validators if they are not yet (a lazy validator loads each on its
   * dialect's first request): undefined when they are, else the load to await before `validate`.
   */
  prepare(document: string): Promise<void> | undefined;
  /** Returns `[]` when the body is valid. Synchronous and allocation-free on the valid path. Throws for a document not prepared. */
  validate(document: string, body: unknown): ValidationIssue[];
}

/**
 * The body fails the dialect's OpenAPI schema (`issues` is not empty); `status` is
 * the dialect's validation status. The first issue names `param` and the code (`unknown_parameter` for a
 * field the schema forbids, else `invalid_value`); all of them go in the message
 * and in `details` (Fireworks' `detail` list).
 * @example failedValidation(422, issues) // 422 invalid_request_error, param 'messages[0].role', code 'invalid_value'
 */
export function failedValidation(status: number, issues: readonly ValidationIssue[]): ProxyError {
  const [first] = issues;
  return new ProxyError({
    status,
    type: 'invalid_request_error',
    param: first.param,
    code: first.type === 'extra_forbidden' ? 'unknown_parameter' : 'invalid_value',
    message: issues.map((issue) => issue.message).join('; '),
    details: issues.map((issue) => ({ loc: issue.loc, msg: issue.message, type: issue.type })),
  });
}
