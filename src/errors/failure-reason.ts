/**
 * Why a request failed, from a fixed set: an upstream's codes are its own words, and must not become a
 * metric's label values nor a span's `error.type` (src/metrics, src/telemetry).
 */
import type { ProxyError } from './proxy-error.js';

export function failureReason(error: ProxyError): string {
  if (error.type === 'timeout_error') return 'timeout';
  switch (error.code) {
    case 'upstream_unreachable':
      return 'unreachable';
    case 'upstream_stream_interrupted':
      return 'interrupted';
    case 'upstream_stream_truncated':
      return 'truncated';
    case 'upstream_bad_response':
      return 'bad_response';
    case 'upstream_auth_failed':
      return 'auth';
    case 'backend_busy':
      return 'busy';
    case 'worker_crashed':
      return 'worker_crashed';
    case 'shutting_down':
      return 'shutting_down';
    default:
      return error.status === 429 ? 'rate_limited' : error.status >= 500 ? 'server_error' : 'other';
  }
}
