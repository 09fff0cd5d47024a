/**
 * `dialect-proxy translate --config FILE [--endpoint chat|completions] [REQUEST.json]`:
 * the migration aid offline. Reads one request body (a file, or stdin), and
 * prints what the configured route would send upstream and what it would
 * change (warnings), or the error a caller would get. Nothing is sent and no
 * model is loaded.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAdapter } from '../adapters/create-adapter.js';
import { loadConfig } from './configuration.js';
import type { Dialect } from './dialects/dialect.js';
import { fireworksCompletionsDialect } from './dialects/fireworks-completions/index.js';
import { openaiChatDialect } from './dialects/openai-chat/index.js';
import { toProxyError } from './errors/proxy-error.js';
import { describeDryRun } from './pipeline/dry-run.js';
import { parseCallerRequest } from './pipeline/parse-caller-request.js';
import { RouteTable, type Backend } from './pipeline/route-table.js';
import { createRequestValidator } from './validation/create-validator.js';

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
  const config = loadConfig(values.config);
  const text = positionals[0] && positionals[0] !== '-' ? readFileSync(positionals[0], 'utf8') : await readAll(io.stdin ?? process.stdin);
  const body = JSON.parse(text) as Record<string, unknown>;
  const dialect: Dialect = (values.endpoint ?? ('messages' in body ? 'chat' : 'completions')) === 'chat' ? openaiChatDialect : fireworksCompletionsDialect;

  const backends = new Map<string, Backend>();
  for (const [name, settings] of Object.entries(config.backends)) backends.set(name, { name, settings, adapter: await createAdapter(name, settings) });
  try {
    const request = parseCallerRequest(await createRequestValidator(), dialect, body);
    const match = new RouteTable(config.routes, backends).match(request.model);
    out(`${JSON.stringify(await describeDryRun(request, match), null, 2)}\n`);
    return 0;
  } catch (error) {
    const failure = toProxyError(error);
    out(`${JSON.stringify({ status: failure.status, ...dialect.errorBody(failure) }, null, 2)}\n`);
    return 1;
  } finally {
    await Promise.allSettled([...backends.values()].map((backend) => backend.adapter.close?.()));
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
