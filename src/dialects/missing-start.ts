/** The error a dialect stream answers when output arrives before `response-start` (which gives every chunk its id). */
import { internalError, type ProxyError } from '../errors/proxy-error.js';

export function missingStart(): ProxyError {
  return internalError('The stream produced output before its response-start event.');
}
