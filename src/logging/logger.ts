/**
 * winston logger: JSON lines when stdout is not a terminal, readable lines when
 * it is. Secrets never reach a transport: keys that look like credentials are
 * masked wherever they appear in a log entry, and so are bearer tokens and a URL's `key=`. Nor does a caller's megabyte: every
 * string of an entry is cut (a 9 MB `model` was a 9 MB line), every list too.
 */
import winston from 'winston';
import { fittingPrefix } from '../text/fitting-prefix.js';

const secretKey =
  /^(authorization|proxy-authorization|api[-_]?key|apikey|x-api-key|x-goog-api-key|password|secret|token|cookie|set-cookie)$/i;
const bearer = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
/** A key in a URL's query (Gemini's callers may send `?key=`), wherever a URL is written. */
const queryKey = /([?&](?:key|api[-_]?key)=)[^&#\s"']+/gi;
/** What either of the two above needs to find (a cheap test before the replacements). */
const maySecret = /bearer|key=/i;

/** The most one string of a log entry keeps, in bytes as written (escapes counted): a line has a few such strings at most. */
const LOG_TEXT_BYTES = 4096;
/** The most items of one list a log entry keeps. */
const LOG_LIST_ITEMS = 32;
const LOG_DEPTH = 6;
/** Where a format leaves the line its transports write (triple-beam's MESSAGE, winston's own key). */
const MESSAGE = Symbol.for('message');

/**
 * Masks credential-like keys and bearer tokens, recursively, without touching the caller's objects;
 * cuts each string at LOG_TEXT_BYTES and each list at LOG_LIST_ITEMS, with a marker (`…[truncated: N chars]`).
 * What it returns is plain, acyclic JSON data: a bigint becomes its digits, a function or a symbol nothing.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (!value || typeof value !== 'object') return value;
  if (depth > LOG_DEPTH) return `[nested deeper than ${LOG_DEPTH} levels]`;
  if (Array.isArray(value)) {
    const items = value.slice(0, LOG_LIST_ITEMS).map((item) => redact(item, depth + 1));
    return value.length > LOG_LIST_ITEMS ? [...items, `…[truncated: ${value.length} items]`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = redactField(key, (value as Record<string, unknown>)[key], depth + 1);
  return out;
}

function redactField(key: string, value: unknown, depth: number): unknown {
  return secretKey.test(key) ? '[redacted]' : redact(value, depth);
}

/** Cut first: a token cut in two is still masked (the marker is not a token character). */
function redactText(text: string): string {
  const cut = cutText(text);
  // One test, and the replacements only where it finds something: nearly every string of a log line holds neither.
  return maySecret.test(cut) ? cut.replace(bearer, '$1[redacted]').replace(queryKey, '$1[redacted]') : cut;
}

/**
 * An entry as one JSON line, redacted and stamped, its level, time and message first. One pass, with the
 * native JSON.stringify (redact's copy is plain data): logform's redact, timestamp and json formats in
 * a row took twice the time, the largest part a key-sorting stringify configured afresh for every line.
 */
const jsonLine = winston.format((info) => {
  const line: Record<string, unknown> = {
    level: info.level,
    timestamp: info.timestamp === undefined ? timestamp() : redact(info.timestamp),
    message: redact(info.message),
  };
  for (const key of Object.keys(info)) if (!(key in line)) line[key] = redactField(key, info[key], 0);
  info[MESSAGE] = JSON.stringify(line);
  return info;
});

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) info[key] = redactField(key, info[key], 0);
  return info;
});

let stampedAt = 0;
let stamp = '';
/** The time as ISO 8601, made once per millisecond (a busy proxy writes several lines in one). */
function timestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/** `text`, or as much of it as takes LOG_TEXT_BYTES once written, then a marker. */
function cutText(text: string): string {
  if (text.length * 6 <= LOG_TEXT_BYTES) return text;
  const { end } = fittingPrefix(text, LOG_TEXT_BYTES, writtenBytes);
  return end === text.length ? text : `${text.slice(0, end)}…[truncated: ${text.length} chars]`;
}

/** The most one UTF-16 unit takes written: escaped (`\u0001`) in either format if a control character or a lone surrogate, `\"` in JSON, else its UTF-8. */
function writtenBytes(code: number): number {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff)) return 6;
  if (code === 0x22 || code === 0x5c) return 2;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

/** Line breaks and other control characters a caller sent (a `model` with a newline) cannot forge a line of the readable log. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function escapeControls(text: string): string {
  return text.replace(controls, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export type Logger = winston.Logger;

export function createLogger(options: { level?: string; json?: boolean; silent?: boolean; stream?: NodeJS.WritableStream } = {}): Logger {
  const json = options.json ?? !process.stdout.isTTY;
  return winston.createLogger({
    level: options.level ?? 'info',
    silent: options.silent ?? false,
    format: json
      ? jsonLine()
      : winston.format.combine(
          redactFormat(),
          winston.format.timestamp(),
          winston.format.colorize(),
          winston.format.printf(({ timestamp, level, message, ...rest }) => {
            const fields = Object.entries(rest).map(
              ([key, value]) =>
                `${escapeControls(key)}=${typeof value === 'object' ? JSON.stringify(value) : escapeControls(String(value))}`,
            );
            return `${String(timestamp)} ${level} ${escapeControls(String(message))} ${fields.join(' ')}`.trimEnd();
          }),
        ),
    transports: [options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console()],
  });
}
