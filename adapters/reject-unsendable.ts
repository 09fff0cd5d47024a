/**
 * The last guard before the wire: a neutral feature this backend's endpoint
 * cannot express is a 400 naming the caller's field, never a silent drop.
 * The plan normally rejects these first (capabilities); this catches what
 * capabilities cannot say per endpoint (e.g. tools on a legacy completions call).
 */
import { invalidRequest, type ProxyError } from '../src/errors/proxy-error.js';
import type { NeutralRequest } from '../src/model/request.js';

/** Neutral path (for the caller's param) -> whether the request uses it. */
export type UsageChecks = Readonly<Record<string, (request: NeutralRequest) => boolean>>;

/** Throws for the first check the request trips. */
export function rejectUnsendable(request: NeutralRequest, checks: UsageChecks, backend: string): void {
  for (const [path, used] of Object.entries(checks)) if (used(request)) throw unsendable(request, path, backend);
}

/** A 400 naming the wire field that set `path` (e.g. `sampling.mirostat` -> `mirostat_target`). */
export function unsendable(request: NeutralRequest, path: string, backend: string, why?: string): ProxyError {
  const param = originOf(request, path) ?? path;
  return invalidRequest(param, `${param} is not supported by ${backend}${why ? `: ${why}` : ''}.`, 'unsupported_parameter');
}

/** The path's own origin, else a child's (`sampling.mirostat.target`), else a parent's (`echo` for `echo.lastTokens`). */
function originOf(request: NeutralRequest, path: string): string | undefined {
  const own = request.origins[path] ?? Object.entries(request.origins).find(([key]) => key.startsWith(`${path}.`))?.[1];
  if (own !== undefined) return own;
  const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : undefined;
  return parent === undefined ? undefined : request.origins[parent];
}

/** True for a value that asks for something: not undefined, null or false. */
export const isUsed = (value: unknown): boolean => value !== undefined && value !== null && value !== false;
