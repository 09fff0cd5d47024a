/** Whole JSON answers, and errors in the caller's dialect (or OpenAI's shape when there is none). */
import type { ServerResponse } from 'node:http';
import type { Dialect } from '../../dialects/dialect.js';
import type { ProxyError } from '../../errors/proxy-error.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, dialect: Pick<Dialect, 'errorBody' | 'errorStatus'> | undefined, error: ProxyError): void {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
  if (error.status === 413) headers.connection = 'close';
  if (error.status === 401) headers['www-authenticate'] = 'Bearer';
  const status = dialect?.errorStatus?.(error) ?? error.status;
  sendJson(res, status === 499 ? 400 : status, dialect ? dialect.errorBody(error) : error.toBody(), headers);
}
