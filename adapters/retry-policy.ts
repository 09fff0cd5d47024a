/**
 * Which upstream failures are worth another try, and how long to wait first:
 * exponential back-off with full jitter (a random wait up to the doubled
 * step, so that clients failing together do not come back together), or the
 * upstream's own `Retry-After` when it gives one.
 */
import type { ProxyError } from '../src/errors/proxy-error.js';
import type { AbortSource } from './transport/deadline.js';

/** Retried: the connection failed, no headers in time, 429, and the 5xx statuses that say "try again". */
// 529: Anthropic's 503 (overloaded).
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504, 529]);
const RETRIED_CODES = new Set(['upstream_unreachable', 'upstream_timeout']);

/** A remote backend's `retries` (REMOTE_DEFAULTS.retries in remote-settings.ts when unset). */
export interface RemoteRetries {
  /** Tries after the first, on connection errors, timeouts before the headers, 429 and 500/502/503/504/529. 0: none. */
  attempts: number;
  /** The first back-off; each next one doubles, with full jitter. */
  initialDelayMs: number;
  /** The longest back-off; a 429 whose `Retry-After` asks for longer goes to the caller with it. */
  maxDelayMs: number;
}

/** The upstream's answer or the transport's failure, as the HTTP client saw it. */
export interface FailedTry {
  error: ProxyError;
  /** The upstream's HTTP status; absent when no response came (connection or timeout). */
  status?: number;
  /**
   * The wait the upstream asked for, in ms, read exactly from its headers
   * (`retry-after-ms`, or `retry-after` in seconds or as a date): the error's
   * `retryAfterSeconds` is rounded up to whole seconds for the caller.
   */
  retryAfterMs?: number;
}

/**
 * The wait before try `attempt + 1` (attempt 0 is the first retry), or
 * undefined when this failure is not retried or the retries are spent.
 * @example retryDelay({ error, status: 503 }, 0, { attempts: 2, initialDelayMs: 500, maxDelayMs: 10000 }) // 0..500
 */
export function retryDelay(
  failed: FailedTry,
  attempt: number,
  retries: RemoteRetries,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= retries.attempts) return undefined;
  const retried = failed.status === undefined ? RETRIED_CODES.has(failed.error.code ?? '') : RETRIED_STATUSES.has(failed.status);
  if (!retried) return undefined;
  const ms = failed.retryAfterMs ?? (failed.error.retryAfterSeconds === undefined ? undefined : failed.error.retryAfterSeconds * 1000);
  if (ms !== undefined) {
    // Longer than we are willing to wait: the caller gets the 429 (or 503) with its Retry-After.
    return ms <= retries.maxDelayMs ? ms : undefined;
  }
  const step = Math.min(retries.maxDelayMs, retries.initialDelayMs * 2 ** attempt);
  return Math.floor(random() * step);
}

/**
 * The wait an upstream answer asks for, in ms: `retry-after-ms` (OpenAI's), else
 * `retry-after` in seconds (fractions kept) or as an HTTP date; undefined when
 * neither is there or readable.
 * @example retryAfterMs({ 'retry-after-ms': '120', 'retry-after': '1' }) // 120
 */
export function retryAfterMs(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  now: number = Date.now(),
): number | undefined {
  const first = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
  };
  const ms = first('retry-after-ms');
  if (ms !== undefined && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const after = first('retry-after');
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSource): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
