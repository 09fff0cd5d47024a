/**
 * Which upstream failures are worth another try, and how long to wait first:
 * exponential back-off with full jitter (a random wait up to the doubled
 * step, so that clients failing together do not come back together), or the
 * upstream's own `Retry-After` when it gives one.
 */
import type { ProxyError } from '../src/errors/proxy-error.js';
import type { RemoteRetries } from './remote-settings.js';

/** Retried: the connection failed, no headers in time, 429, and the 5xx statuses that say "try again". */
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);
const RETRIED_CODES = new Set(['upstream_unreachable', 'upstream_timeout']);

/** The upstream's answer or the transport's failure, as the HTTP client saw it. */
export interface FailedTry {
  error: ProxyError;
  /** The upstream's HTTP status; absent when no response came (connection or timeout). */
  status?: number;
}

/**
 * The wait before try `attempt + 1` (attempt 0 is the first retry), or
 * undefined when this failure is not retried or the retries are spent.
 * @example retryDelay({ error, status: 503 }, 0, { attempts: 2, initialDelayMs: 500, maxDelayMs: 10000 }) // 0..500
 */
export function retryDelay(failed: FailedTry, attempt: number, retries: RemoteRetries, random: () => number = Math.random): number | undefined {
  if (attempt >= retries.attempts) return undefined;
  const retried = failed.status === undefined ? RETRIED_CODES.has(failed.error.code ?? '') : RETRIED_STATUSES.has(failed.status);
  if (!retried) return undefined;
  const asked = failed.error.retryAfterSeconds;
  if (asked !== undefined) {
    const ms = asked * 1000;
    // Longer than we are willing to wait: the caller gets the 429 (or 503) with its Retry-After.
    return ms <= retries.maxDelayMs ? ms : undefined;
  }
  const step = Math.min(retries.maxDelayMs, retries.initialDelayMs * 2 ** attempt);
  return Math.floor(random() * step);
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
