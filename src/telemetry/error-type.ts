/** `error.type` for a span: low-cardinality, as the conventions ask (the metrics' reasons for the proxy's failures). */
import { failureReason } from '../errors/failure-reason.js';
import { ProxyError } from '../errors/proxy-error.js';

export function errorTypeOf(error: unknown): string {
  if (error instanceof ProxyError) return failureReason(error);
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return typeof code === 'string' ? code : error.name;
  }
  return '_OTHER';
}
