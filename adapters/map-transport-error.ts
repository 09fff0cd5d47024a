/**
 * A failure below HTTP (refused connection, DNS, reset, timeout, abort) -> ProxyError.
 * Messages name the upstream host, never the full URL or any header.
 */
import { upstreamTimeout, upstreamUnreachable } from '../src/errors/catalogue.js';
import { ProxyError, clientClosedRequest } from '../src/errors/proxy-error.js';
import type { AbortSource } from './transport/deadline.js';

export interface TransportContext {
  /** The upstream URL, reduced to its host in messages. */
  url?: string;
  /** The caller's signal: when it fired, the failure is the caller's abort or the pipeline's deadline. */
  signal?: AbortSource;
}

/** Node / undici error codes, looked up on the error and on its `cause`. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed unexpectedly',
  UND_ERR_CLOSED: 'connection closed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

const TIMEOUTS: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the response stalled between chunks',
  ETIMEDOUT: 'the connection timed out',
};

export function mapTransportError(error: unknown, context: TransportContext = {}): ProxyError {
  if (error instanceof ProxyError) return error;
  const host = hostOf(context.url);

  if (context.signal?.aborted) return abortError(context.signal.reason, host);

  const code = errorCode(error);
  if (code && code in TIMEOUTS) {
    return upstreamTimeout(`The upstream backend ${host} timed out: ${TIMEOUTS[code]}.`, error);
  }
  if (code && code in UNREACHABLE) {
    return upstreamUnreachable(`Could not reach the upstream backend ${host}: ${UNREACHABLE[code]}.`, error);
  }
  if (code === 'UND_ERR_ABORTED' || (error as { name?: unknown } | undefined)?.name === 'AbortError') return abortError(undefined, host);
  return upstreamUnreachable(`The request to the upstream backend ${host} failed${code ? ` (${code})` : ''}.`, error);
}

/** A deadline (TimeoutError) is a 504; anything else is the caller going away (499). */
function abortError(reason: unknown, host: string): ProxyError {
  // The pipeline aborted with the answer it wants (the proxy shutting down).
  if (reason instanceof ProxyError) return reason;
  // AbortSignal.timeout's reason is a DOMException, which is not an Error in every realm: check the name.
  if ((reason as { name?: unknown } | undefined)?.name === 'TimeoutError') {
    return upstreamTimeout(`The upstream backend ${host} did not answer in time.`, reason);
  }
  return clientClosedRequest();
}

/** What broke, in words, for a connection failure ("connection reset"); undefined for anything else. */
export function connectionFailure(error: unknown): string | undefined {
  const code = errorCode(error);
  return code === undefined ? undefined : UNREACHABLE[code];
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(url: string | undefined): string {
  if (!url) return '(unknown host)';
  try {
    return new URL(url).host;
  } catch {
    return '(invalid URL)';
  }
}
