/**
 * winston logger: JSON lines when stdout is not a terminal, readable lines when
 * it is. Secrets never reach a transport: keys that look like credentials are
 * masked wherever they appear in a log entry.
 */
import winston from 'winston';

const secretKey = /^(authorization|proxy-authorization|api[-_]?key|apikey|x-api-key|password|secret|token|cookie|set-cookie)$/i;
const bearer = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

/** Masks credential-like keys and bearer tokens, recursively, without touching the caller's objects. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(bearer, '$1[redacted]');
  if (!value || typeof value !== 'object' || depth > 6) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = secretKey.test(key) ? '[redacted]' : redact(item, depth + 1);
  return out;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    info[key] = secretKey.test(key) ? '[redacted]' : redact(info[key]);
  }
  return info;
});

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
    format: winston.format.combine(
      redactFormat(),
      winston.format.timestamp(),
      json
        ? winston.format.json()
        : winston.format.combine(
            winston.format.colorize(),
            winston.format.printf(({ timestamp, level, message, ...rest }) => {
              const fields = Object.entries(rest).map(
                ([key, value]) =>
                  `${escapeControls(key)}=${typeof value === 'object' ? JSON.stringify(value) : escapeControls(String(value))}`,
              );
              return `${String(timestamp)} ${level} ${escapeControls(String(message))} ${fields.join(' ')}`.trimEnd();
            }),
          ),
    ),
    transports: [options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console()],
  });
}
