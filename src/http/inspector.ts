/**
 * The inspector page: one static HTML file (config/inspector.html, everything
 * inline, no build step, nothing from elsewhere) where a user pastes a request
 * in any caller dialect (Chat Completions, Completions, Responses, Anthropic
 * Messages), sees it beside what the backend gets with every change marked
 * (the same dry run as any client, `x-dialect-dry-run: 1`; or, for a default
 * backend of any kind, `translate --to`'s: inspector-api.ts), sends it and
 * watches the reply arrive as the caller's dialect gets it, tool calls
 * included. It calls the same endpoints as any client, with the key the user
 * types, which lives in the page's memory only. A strict Content-Security-Policy
 * allows exactly its own inline script and style and requests to its own origin.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from '../config/package-root.js';

export interface InspectorPage {
  html: string;
  headers: Readonly<Record<string, string>>;
}

let loaded: InspectorPage | undefined;

/** The page and its headers, read once. */
export function inspectorPage(): InspectorPage {
  if (loaded) return loaded;
  const html = readFileSync(join(findPackageRoot(fileURLToPath(import.meta.url)), 'config', 'inspector.html'), 'utf8');
  const hashes = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))]
      .map(([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`)
      .join(' ');
  loaded = {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(html)),
      'content-security-policy': [
        "default-src 'none'",
        `script-src ${hashes('script')}`,
        `style-src ${hashes('style')}`,
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
  };
  return loaded;
}

/** The placeholder in the page for the path its router is mounted at (the page's API calls go below it). */
const BASE_META = '<meta name="dialect-proxy-base" content="/">';

/**
 * `GET` (and `HEAD`) of the page. Under Express, `req.baseUrl` is where the
 * proxy's router is mounted (`app.use('/llm', proxy)`): the page calls
 * `/llm/v1/...` whatever path it is served at. The base goes in a `<meta>`, so
 * the hashes of the inline script and style stay those of the file.
 */
export function serveInspector(req: IncomingMessage, res: ServerResponse): void {
  const page = inspectorPage();
  const mounted = (req as IncomingMessage & { baseUrl?: unknown }).baseUrl;
  const html =
    typeof mounted === 'string' && mounted !== ''
      ? page.html.replace(BASE_META, `<meta name="dialect-proxy-base" content="${escapeAttribute(`${mounted.replace(/\/+$/, '')}/`)}">`)
      : page.html;
  res.writeHead(200, { ...page.headers, 'content-length': String(Buffer.byteLength(html)) });
  res.end(req.method === 'HEAD' ? undefined : html);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
