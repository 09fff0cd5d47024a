// Module hooks for a proxy process under test (registered by otel-import-watch.mjs): every
// resolution of an @opentelemetry/* package is appended to the file OTEL_IMPORT_LOG names.
import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@opentelemetry/') && process.env.OTEL_IMPORT_LOG) appendFileSync(process.env.OTEL_IMPORT_LOG, `${specifier}\n`);
  return next(specifier, context);
}
