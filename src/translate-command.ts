/**
 * `dialect-proxy translate`: the migration aid offline. Reads one request body
 * (a file, or stdin) in either dialect and prints what a backend would get,
 * with every change on the way; or, with `--responses`, a recorded backend
 * reply as the caller's dialect would get it. Nothing is sent, no model loads.
 *
 * Exit codes: 0 lossless, 1 lossy, 2 rejected (the backend would refuse the
 * request, the request is malformed, or the command cannot run). Never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SpokenEndpoint } from './backend/adapter.js';
import { ConfigError, loadConfig } from './configuration.js';
import { DIALECTS } from './dialects/registry.js';
import { DEFAULT_PROFILES } from './fields/backend-profiles.js';
import { exitCodeOf, type Change } from './pipeline/translation-report.js';
import { createTranslator, TargetError, type CallerEndpoint, type TranslateTarget, type Translation, type Translator } from './translate.js';
import { readRecording, translateResponse, type ResponseTranslation } from './translate-responses.js';

const KINDS = DEFAULT_PROFILES.map(({ name }) => name).join('|');

export const translateUsage = `Usage: dialect-proxy translate (--to KIND [--speaks chat|completions|both] | --config FILE) [options] [REQUEST.json]

Prints what a backend would receive for one request body in either dialect
(read from REQUEST.json, or stdin), and every change on the way: each field
renamed, converted, emulated, dropped or rejected, and why. Nothing is sent.

  --to KIND          a default backend of this kind (${KINDS}), as docs/fields.md assumes it
  --speaks WHICH     with --to: the endpoints it serves, chat, completions or both (default: the kind's)
  --config FILE      route as this configuration does (the first backend of the matching route)
  --model NAME       route and send this model name instead of the body's
  --endpoint WHICH   the caller's dialect, chat or completions (default: chat when the body has "messages")
  --responses REPLY  translate a recorded backend reply (a JSON body or an SSE stream file) into
                     the caller's dialect, as the request would get it
  --json             one JSON document on stdout, for scripts
  --help, -h         this text

Exit codes: 0 lossless (renames and conversions that keep the meaning), 1 lossy (something
dropped or approximated), 2 rejected (the backend would refuse the request, or the request is
malformed). With --responses: 0 when the reply translates, 2 when the caller gets an error.`;

export interface CommandIo {
  stdin?: NodeJS.ReadableStream;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** A misuse of the command (a bad option): a message and the usage, exit 2. */
class UsageError extends Error {}

/** A file that cannot be read: a message, exit 2. */
class InputError extends Error {}

/**
 * Runs the command; returns the exit code. Prints nothing but the report (or the problem, on stderr).
 * @example process.exitCode = await runTranslateCommand(['--to', 'openai', 'request.json']);
 */
export async function runTranslateCommand(args: string[], io: CommandIo = {}): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const err = io.err ?? ((text: string) => process.stderr.write(text));
  try {
    return await run(args, io.stdin ?? process.stdin, out);
  } catch (error) {
    const known = error instanceof UsageError || error instanceof InputError || error instanceof TargetError || error instanceof ConfigError;
    err(`dialect-proxy translate: ${known ? error.message : `failed: ${(error as Error)?.message ?? String(error)}`}\n`);
    if (error instanceof UsageError) err(`\n${translateUsage}\n`);
    return 2;
  }
}

async function run(args: string[], stdin: NodeJS.ReadableStream, out: (text: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        to: { type: 'string', short: 't' },
        speaks: { type: 'string' },
        config: { type: 'string', short: 'c' },
        model: { type: 'string', short: 'm' },
        endpoint: { type: 'string', short: 'e' },
        responses: { type: 'string', short: 'r' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${translateUsage}\n`);
    return 0;
  }
  const target = targetOf(values);
  const endpoint = endpointOf(values.endpoint);
  if (positionals.length > 1) throw new UsageError(`one request at a time (got ${positionals.length} files)`);
  const text = positionals[0] && positionals[0] !== '-' ? readText(positionals[0]) : await readAll(stdin);
  const recording = values.responses === undefined ? undefined : readRecording(readText(values.responses));

  const translator = await createTranslator(target);
  try {
    const options = { ...(endpoint ? { endpoint } : {}), ...(values.model !== undefined ? { model: values.model } : {}) };
    if (recording) {
      const translated = await translateResponse(translator, text, recording, options);
      out(values.json ? `${JSON.stringify(translated, null, 2)}\n` : renderResponse(translated));
      return translated.ok ? 0 : 2;
    }
    const translation = await translator.translate(text, options);
    out(values.json ? `${JSON.stringify(documentOf(translation), null, 2)}\n` : renderTranslation(translation, await describeTarget(translator, target, translation)));
    return translation.verdict === 'invalid' ? 2 : exitCodeOf(translation.verdict);
  } finally {
    await translator.close();
  }
}

function targetOf(values: { to?: string; speaks?: string; config?: string }): TranslateTarget {
  if (values.to !== undefined && values.config !== undefined) throw new UsageError('--to and --config exclude each other: a default backend of a kind, or the routes of a configuration');
  if (values.config !== undefined) {
    if (values.speaks !== undefined) throw new UsageError('--speaks goes with --to (a configuration says what each backend speaks)');
    return { config: loadConfig(values.config) };
  }
  if (values.to === undefined) throw new UsageError('say where to: --to KIND (a default backend of that kind) or --config FILE (real routing)');
  const speaks = values.speaks === undefined ? undefined : speaksOf(values.speaks);
  return { kind: values.to, ...(speaks ? { speaks } : {}) };
}

function speaksOf(value: string): SpokenEndpoint[] {
  if (value === 'both') return ['chat', 'completions'];
  if (value === 'chat' || value === 'completions') return [value];
  throw new UsageError(`--speaks: chat, completions or both (got "${value}")`);
}

function endpointOf(value: string | undefined): CallerEndpoint | undefined {
  if (value === undefined) return undefined;
  if (value === 'chat' || value === 'completions') return value;
  throw new UsageError(`--endpoint: chat or completions (got "${value}")`);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON document: the report, or for a request the dialect refuses, why. */
export function documentOf(translation: Translation): Record<string, unknown> {
  if (translation.verdict !== 'invalid') return { ...translation.report };
  return { object: 'dialect.dry_run', dialect: translation.dialect.name, verdict: 'invalid', changes: [], warnings: [], upstream: [], error: translation.error };
}

/** "backend "openai" (kind openai, speaks chat)", from the backend the request was (or would have been) routed to. */
async function describeTarget(translator: Translator, target: TranslateTarget, translation: Translation): Promise<string> {
  if ('kind' in target) {
    const { backend } = translator.match('');
    return `a default ${target.kind} backend (speaks ${backend.adapter.capabilities.speaks.join(' and ')}${target.speaks ? ', as --speaks says' : ''})`;
  }
  if (translation.verdict === 'invalid') return 'the configured routes';
  const { report } = translation;
  return `backend "${report.backend}" (kind ${report.kind})`;
}

const DIALECT_NAMES: Record<string, string> = { 'openai-chat': 'OpenAI chat', 'fireworks-completions': 'Fireworks completions' };

const VERDICTS = {
  lossless: 'LOSSLESS (exit 0): the same meaning; only names and forms change',
  lossy: 'LOSSY (exit 1): something is dropped or approximated',
  rejected: 'REJECTED (exit 2): the backend would refuse this request',
  invalid: 'INVALID (exit 2): the request is malformed; no backend would see it',
} as const;

/** The readable report. */
export function renderTranslation(translation: Translation, target: string): string {
  const lines: string[] = [];
  const dialect = DIALECT_NAMES[translation.dialect.name] ?? translation.dialect.name;
  lines.push(`${dialect} request (${translation.dialect.path}) -> ${target}`);
  const untouched = translation.verdict === 'lossless' && translation.report.changes.length === 0;
  lines.push(`Verdict: ${untouched ? 'LOSSLESS (exit 0): the backend gets the request as it is' : VERDICTS[translation.verdict]}`);
  if (translation.verdict === 'invalid') {
    lines.push('', `A caller gets: ${describeError(translation.error)}`);
    return `${lines.join('\n')}\n`;
  }
  const { report } = translation;
  lines.push('', ...renderChanges(report.changes));
  if (report.error) lines.push('', `A caller gets: ${describeError(report.error)}`);
  if (report.upstream.length > 0) {
    const without = report.error ? ', without the rejected fields' : '';
    const count = report.upstream.length > 1 ? `Upstream requests (${report.upstream.length}${without}):` : `Upstream request${without}:`;
    lines.push('', count);
    for (const call of report.upstream) {
      lines.push(`POST ${call.endpoint}${call.stream ? ' (streamed)' : ''}`, JSON.stringify(call.body, null, 2));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The changes as a table: the action, the field (and what it became), why. */
export function renderChanges(changes: readonly Change[]): string[] {
  if (changes.length === 0) return ['No changes: the backend gets the request as it is.'];
  const rows = changes.map((change) => [
    change.action + (change.lossy && change.action !== 'rejected' && change.action !== 'dropped' ? ' (lossy)' : ''),
    change.to ? `${change.field} -> ${change.to}` : change.field,
    change.reason,
  ]);
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column].length)));
  return [`Changes (${changes.length}):`, ...rows.map(([action, field, reason]) => `  ${action.padEnd(widths[0])}  ${field.padEnd(widths[1])}  ${reason}`)];
}

function describeError({ status, body }: { status: number; body: Record<string, unknown> }): string {
  const error = (body.error ?? {}) as { message?: string; code?: string | null; type?: string; param?: string | null };
  const code = error.code ?? error.type ?? 'error';
  return `${status} ${code}${error.param ? ` (param ${error.param})` : ''}: ${error.message ?? JSON.stringify(body)}`;
}

/** The readable form of a translated reply: a line about it, then the answer exactly as the caller reads it. */
export function renderResponse(translated: ResponseTranslation): string {
  const dialect = DIALECT_NAMES[translated.dialect] ?? translated.dialect;
  const path = DIALECTS.find((known) => known.name === translated.dialect)?.path ?? '';
  const from = translated.backend ? `backend "${translated.backend}" (kind ${translated.kind})${translated.upstream ? `, as its answer to POST ${translated.upstream.endpoint}` : ''}` : 'no backend';
  const lines = [
    `Recorded reply from ${from}`,
    `as ${/^[AEIOU]/.test(dialect) ? 'an' : 'a'} ${dialect} caller gets it (POST ${path}): ${translated.status}${translated.stream ? ', streamed' : ''}${translated.ok ? '' : ', an error'}`,
  ];
  const payload = translated.stream ? (translated.sse ?? '') : `${JSON.stringify(translated.body, null, 2)}\n`;
  return `${lines.join('\n')}\n\n${payload}`;
}
