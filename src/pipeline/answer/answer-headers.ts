/** The proxy's own response headers: which backend answered (and which were tried), and the lossy changes made on the way. */
import type { ServerResponse } from 'node:http';

/** Set before the first byte: headers leave with it. */
export function setAnswerHeaders(res: ServerResponse, backend: string, tried: readonly string[], warnings: readonly string[]): void {
  setBackendHeaders(res, backend, tried);
  if (warnings.length > 0) res.setHeader('x-dialect-warnings', warnings.join('; '));
}

export function setBackendHeaders(res: ServerResponse, backend: string, tried: readonly string[]): void {
  res.setHeader('x-dialect-backend', backend);
  if (tried.length > 1) res.setHeader('x-dialect-tried', tried.join(', '));
}
