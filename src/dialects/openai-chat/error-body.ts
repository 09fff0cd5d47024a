/** The chat dialect's error body: OpenAI's `{error: {message, type, param, code}}`. */
import type { ProxyError } from '../../errors/proxy-error.js';

export function chatErrorBody(error: ProxyError): Record<string, unknown> {
  return { ...error.toBody() };
}
