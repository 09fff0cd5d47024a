/** The completions dialect's error body: OpenAI's `{error}` plus Fireworks' FastAPI-style `detail` list. */
import type { ProxyError } from '../../errors/proxy-error.js';

export function completionErrorBody(error: ProxyError): Record<string, unknown> {
  return { ...error.toBody(true) };
}
