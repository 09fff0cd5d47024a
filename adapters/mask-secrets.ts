/**
 * A backend's configured secrets (its `apiKey` and every `headers:` value)
 * never reach a caller or a log through an upstream's words: an upstream that
 * echoes a request header in an error puts it in the message the proxy passes on.
 */
import { ProxyError } from '../src/errors/proxy-error.js';

/** Shorter header values are not credentials (`v1`, `true`), and masking them would garble messages. */
const MIN_HEADER_SECRET_LENGTH = 8;

export function secretsOf(settings: { apiKey?: string; headers?: Record<string, string> }): string[] {
  const headers = Object.values(settings.headers ?? {}).filter((value) => value.length >= MIN_HEADER_SECRET_LENGTH);
  return [...new Set([...(settings.apiKey ? [settings.apiKey] : []), ...headers])];
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}

/** The error with every secret masked in its message and details (the same error when none is there). */
export function withoutSecrets(error: ProxyError, secrets: readonly string[]): ProxyError {
  if (secrets.length === 0) return error;
  const masked = (text: string) => maskSecrets(text, secrets);
  const message = masked(error.message);
  const details = error.details?.map((detail) => ({
    ...detail,
    msg: masked(detail.msg),
    loc: detail.loc.map((part) => (typeof part === 'string' ? masked(part) : part)),
  }));
  const changed = message !== error.message || details?.some((detail, i) => JSON.stringify(detail) !== JSON.stringify(error.details?.[i]));
  if (!changed) return error;
  return new ProxyError({
    status: error.status,
    type: error.type,
    param: error.param,
    code: error.code,
    message,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...(details ? { details } : {}),
    cause: error.cause,
  });
}
