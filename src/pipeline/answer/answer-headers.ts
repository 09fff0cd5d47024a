/** The proxy's own response headers: which backend answered (and which were tried), and the lossy changes made on the way. */
import type { ServerResponse } from 'node:http';

/** A header's longest value: clients refuse a response whose headers pass 16 KB in all (Node's and undici's default). */
const MAX_HEADER_CHARS = 8 * 1024;

/** Set before the first byte: headers leave with it. */
export function setAnswerHeaders(res: ServerResponse, backend: string, tried: readonly string[], warnings: readonly string[]): void {
  setBackendHeaders(res, backend, tried);
  if (warnings.length > 0) res.setHeader('x-dialect-warnings', headerText(warnings, '; '));
}

export function setBackendHeaders(res: ServerResponse, backend: string, tried: readonly string[]): void {
  res.setHeader('x-dialect-backend', headerText([backend], ''));
  if (tried.length > 1) res.setHeader('x-dialect-tried', headerText(tried, ', '));
}

/**
 * Items joined as a header value HTTP allows: what is not printable ASCII (a model's tool name in
 * another script, a control character) written as `\uXXXX`, and the items past 8 KB counted, not listed.
 * @example headerText(['dropped tools[0] (名前)'], '; ') // 'dropped tools[0] (\u540d\u524d)'
 */
export function headerText(items: readonly string[], separator: string): string {
  let text = '';
  for (let i = 0; i < items.length; i++) {
    const item = (i > 0 ? separator : '') + items[i].replace(/[^\x20-\x7e]/g, escapeChar);
    if (text.length + item.length > MAX_HEADER_CHARS) {
      return i === 0 ? `${item.slice(0, MAX_HEADER_CHARS)}...` : `${text}${separator}... ${items.length - i} more`;
    }
    text += item;
  }
  return text;
}

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
