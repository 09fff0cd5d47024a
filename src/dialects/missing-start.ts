/** The error a dialect stream answers when output arrives before `response-start` (which gives every chunk its id). */
import { ProxyError } from '../errors/proxy-error.js';

export function missingStart(): ProxyError {
  return new ProxyError({ status: 500, type: 'server_error', code: 'internal_error', message: 'The stream produced output before its response-start event.' });
}
