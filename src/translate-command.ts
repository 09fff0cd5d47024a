/**
 * `dialect-proxy translate --config FILE [--endpoint chat|completions] [REQUEST.json]`:
 * the migration aid offline. Reads one request body (a file, or stdin), and
 * prints what the configured route would send upstream and what it would
 * change (warnings), or the error a caller would get. Nothing is sent and no
 * model is loaded.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from './configuration.js';
import { translate } from './translate.js';

export const translateUsage = `Usage: dialect-proxy translate --config FILE [--endpoint chat|completions] [REQUEST.json]

Prints the upstream request(s) the routed backend would get for one request
body (read from REQUEST.json, or stdin), with the warnings; nothing is sent.
--endpoint defaults to chat when the body has "messages", else completions.`;

export async function runTranslateCommand(args: string[], io: { stdin?: NodeJS.ReadableStream; out?: (text: string) => void } = {}): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { config: { type: 'string', short: 'c' }, endpoint: { type: 'string', short: 'e' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || !values.config) {
    out(`${translateUsage}\n`);
    return values.help ? 0 : 2;
  }
  const text = positionals[0] && positionals[0] !== '-' ? readFileSync(positionals[0], 'utf8') : await readAll(io.stdin ?? process.stdin);
  const endpoint = values.endpoint === 'chat' || values.endpoint === 'completions' ? values.endpoint : undefined;
  const outcome = await translate(loadConfig(values.config), JSON.parse(text) as Record<string, unknown>, endpoint);
  out(`${JSON.stringify(outcome.ok ? outcome.translation : { status: outcome.status, ...outcome.error }, null, 2)}\n`);
  return outcome.ok ? 0 : 1;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
