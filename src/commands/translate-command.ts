/**
 * `dialect-proxy translate`: the migration aid offline. Reads one request body
 * (a file, or stdin) in any caller dialect and prints what a backend would get,
 * with every change on the way; or, with `--responses`, a recorded backend
 * reply as the caller's dialect would get it; or, with `--as`, the request as
 * it would be written in another caller API: Chat Completions, Responses or
 * Anthropic Messages (src/commands/migrate/). Nothing is sent, no model loads.
 *
 * Exit codes: 0 lossless, 1 lossy, 2 rejected (the backend would refuse the
 * request, the request is malformed, or the command cannot run). Never a stack trace.
 * What it prints of the request, the reply or the config is escaped (escaping-writer.ts).
 */
import { readFileSync } from 'node:fs';
import { OPENAI_PATHS, type SpokenEndpoint } from '../backend/adapter.js';
import { ConfigError, loadConfig } from '../runtime/configuration.js';
import { parseCommandLine, UsageError } from './parse-command-line.js';
import { fileProblem } from '../config/file-problem.js';
import { DEFAULT_PROFILES } from './fields/backend-profiles.js';
import { exitCodeOf } from '../pipeline/report/translation-report.js';
import { chatToResponses, migrationVerdict, responsesToChat, type Migration } from './migrate/chat-responses.js';
import { parseCallerRequest } from '../pipeline/request/parse-caller-request.js';
import { toProxyError } from '../errors/proxy-error.js';
import { createRequestValidator } from '../validation/create-validator.js';
import {
  CALLER_ENDPOINTS,
  createTranslator,
  detectEndpoint,
  dialectFor,
  endpointNamed,
  parseBody,
  speaksNamed,
  TargetError,
  type ParsedBody,
  type CallerEndpoint,
  type TranslateTarget,
  type Translation,
  type Translator,
} from './translate.js';
import { readRecording, translateResponse } from './translate-responses.js';
import { composeMigrations, migrateThroughKind, MigrationRefused } from './migrate/through-kind.js';
import type { NeutralRequest } from '../model/request.js';
import {
  dialectTitle,
  documentOf,
  renderMigration,
  renderResponse,
  renderTranslation,
  type MigrationDocument,
} from './translate-output.js';
import { escapeControls } from '../logging/logger.js';
import { escapingWriter } from './escaping-writer.js';
import { titleWithArticle } from '../dialects/title-with-article.js';
import { DIALECTS } from '../dialects/registry.js';

const KINDS = DEFAULT_PROFILES.map(({ name }) => name).join('|');
/** "a, b or c". */
const listed = (items: readonly string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items.at(-1)}` : items.join(''));
const ENDPOINTS = listed(CALLER_ENDPOINTS);

export const translateUsage = `Usage: dialect-proxy translate (--to KIND [--speaks chat|completions|both] | --config FILE) [options] [REQUEST.json]
       dialect-proxy translate --as chat|responses|anthropic|gemini [--model NAME] [--json] [REQUEST.json]

Prints what a backend would receive for one request body in any caller dialect
(${listed(DIALECTS.map(({ title }) => title))};
read from REQUEST.json, or stdin), and every change on the way: each field renamed,
converted, emulated, dropped or rejected, and why. Nothing is sent.

  --to KIND          a default backend of this kind (${KINDS}), as docs/fields.md assumes it
  --speaks WHICH     with --to: the endpoints it serves, chat, completions or both (default: the kind's)
  --config FILE      route as this configuration does (the first backend of the matching route)
  --model NAME       route and send this model name instead of the body's
  --endpoint WHICH   the caller's dialect: ${ENDPOINTS} (or its path).
                     Default: chat when the body has "messages" (messages when it also has
                     Anthropic's system, stop_sequences or blocks), completions when it has
                     "prompt", responses when it has "input" or "instructions"
  --responses REPLY  translate a recorded backend reply (a JSON body or an SSE stream file) into
                     the caller's dialect, as the request would get it
  --as API           no backend: the request as it would be written in another caller API, with
                     every change: chat, responses, anthropic (Messages) or gemini, from any other
  --json             one JSON document on stdout, for scripts
  --help, -h         this text

Exit codes: 0 lossless (renames and conversions that keep the meaning), 1 lossy (something
dropped or approximated), 2 rejected (the backend would refuse the request, or the request is
malformed). With --responses: 0 when the reply translates, 2 when the caller gets an error.
With --as: 0 lossless, 1 lossy, 2 when the request is malformed.`;

export interface CommandIo {
  stdin?: NodeJS.ReadableStream;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** A file that cannot be read: a message, exit 2. */
class InputError extends Error {}

/**
 * Runs the command; returns the exit code. Prints nothing but the report (or the problem, on stderr).
 * @example process.exitCode = await runTranslateCommand(['--to', 'openai', 'request.json']);
 */
export async function runTranslateCommand(args: string[], io: CommandIo = {}): Promise<number> {
  // The renderers escape each value from the input; this is the guard for the rest (a JSON document's C1 controls, a message).
  const out = escapingWriter(io.out ?? ((text: string) => process.stdout.write(text)));
  const err = escapingWriter(io.err ?? ((text: string) => process.stderr.write(text)));
  try {
    return await run(args, io.stdin ?? process.stdin, out);
  } catch (error) {
    const known =
      error instanceof UsageError || error instanceof InputError || error instanceof TargetError || error instanceof ConfigError;
    err(`dialect-proxy translate: ${escapeControls(known ? error.message : `failed: ${(error as Error)?.message ?? String(error)}`)}\n`);
    if (error instanceof UsageError) err(`\n${translateUsage}\n`);
    return 2;
  }
}

async function run(args: string[], stdin: NodeJS.ReadableStream, out: (text: string) => void): Promise<number> {
  const parsed = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      to: { type: 'string', short: 't' },
      speaks: { type: 'string' },
      config: { type: 'string', short: 'c' },
      model: { type: 'string', short: 'm' },
      endpoint: { type: 'string', short: 'e' },
      responses: { type: 'string', short: 'r' },
      as: { type: 'string', short: 'a' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${translateUsage}\n`);
    return 0;
  }
  if (values.as !== undefined) return migrateCommand(values, positionals, stdin, out);
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
    out(
      values.json
        ? `${JSON.stringify(documentOf(translation), null, 2)}\n`
        : renderTranslation(translation, await describeTarget(translator, target, translation)),
    );
    return translation.verdict === 'invalid' ? 2 : exitCodeOf(translation.verdict);
  } finally {
    await translator.close();
  }
}

function targetOf(values: { to?: string; speaks?: string; config?: string }): TranslateTarget {
  if (values.to !== undefined && values.config !== undefined)
    throw new UsageError('--to and --config exclude each other: a default backend of a kind, or the routes of a configuration');
  if (values.config !== undefined) {
    if (values.speaks !== undefined) throw new UsageError('--speaks goes with --to (a configuration says what each backend speaks)');
    // Nothing is sent: an API key the file reads from the environment need not be set.
    return { config: loadConfig(values.config, process.env, { unsetVariables: 'empty' }) };
  }
  if (values.to === undefined)
    throw new UsageError('say where to: --to KIND (a default backend of that kind) or --config FILE (real routing)');
  const speaks = values.speaks === undefined ? undefined : speaksOf(values.speaks);
  return { kind: values.to, ...(speaks ? { speaks } : {}) };
}

function speaksOf(value: string): SpokenEndpoint[] {
  const speaks = speaksNamed(value);
  if (speaks) return speaks;
  throw new UsageError(`--speaks: chat, completions or both (got "${value}")`);
}

function endpointOf(value: string | undefined): CallerEndpoint | undefined {
  if (value === undefined) return undefined;
  const endpoint = endpointNamed(value);
  if (endpoint) return endpoint;
  throw new UsageError(`--endpoint: ${ENDPOINTS} (got "${value}")`);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${fileProblem(error)}`);
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** "backend "openai" (kind openai, speaks chat)", from the backend the request was (or would have been) routed to. */
async function describeTarget(translator: Translator, target: TranslateTarget, translation: Translation): Promise<string> {
  if ('kind' in target) {
    const { backend } = translator.match('');
    const { paths, capabilities } = backend.adapter;
    // OpenAI's endpoints by their names; another API's (Anthropic's /messages) by its path.
    const named = (endpoint: SpokenEndpoint) => (!paths || paths[endpoint] === OPENAI_PATHS[endpoint] ? endpoint : paths[endpoint]);
    const spoken = [...new Set(capabilities.speaks.map(named))].join(' and ');
    return `a default ${target.kind} backend (speaks ${spoken}${target.speaks ? ', as --speaks says' : ''})`;
  }
  if (translation.verdict === 'invalid') return 'the configured routes';
  const { report } = translation;
  return `backend "${report.backend}" (kind ${report.kind})`;
}

// ------------------------------------------------------------------------------------------
// --as: a request in another caller API
// ------------------------------------------------------------------------------------------

/** The APIs `--as` writes, by the names the option takes. */
const AS_TARGETS: Readonly<Record<string, CallerEndpoint>> = {
  chat: 'chat',
  responses: 'responses',
  anthropic: 'messages',
  messages: 'messages',
  gemini: 'gemini',
};

type Conversion = (parsed: ParsedBody) => Promise<Migration>;

/** Reads a request parsed by its dialect (through-kind.ts needs the neutral request). */
const parsedRequest = (parsed: ParsedBody) => ({ ...parsed, request: parsed.request as NeutralRequest });

/**
 * How a request moves from one API to another: between OpenAI's two APIs by their exact
 * wire tables (migrate/chat-responses.ts); to and from Messages through the neutral model
 * and the backend kind that speaks the other API (migrate/through-kind.ts).
 */
function conversionOf(from: CallerEndpoint, to: CallerEndpoint): Conversion | undefined {
  if (from === 'chat' && to === 'responses') return async ({ body }) => chatToResponses(body);
  if (from === 'responses' && to === 'chat') return async ({ body }) => responsesToChat(body);
  if (to === 'messages' && (from === 'chat' || from === 'responses'))
    return (parsed) => migrateThroughKind(parsedRequest(parsed), 'messages');
  // To Gemini from any other: written by the gemini kind (the model goes in the URL, not the body).
  if (to === 'gemini' && from !== 'gemini') return (parsed) => migrateThroughKind(parsedRequest(parsed), 'gemini');
  // Gemini's requests, like Anthropic's, have no wire table to the others: through the neutral model.
  if (from === 'gemini' && to === 'messages') return (parsed) => migrateThroughKind(parsedRequest(parsed), 'messages');
  if ((from === 'messages' || from === 'gemini') && to === 'chat') return (parsed) => migrateThroughKind(parsedRequest(parsed), 'chat');
  if ((from === 'messages' || from === 'gemini') && to === 'responses')
    return async (parsed) => {
      const chat = await migrateThroughKind(parsedRequest(parsed), 'chat');
      // The openai kind asks for usage on every stream; Messages and Responses streams always carry it.
      const { stream_options: _usage, ...body } = chat.body;
      return composeMigrations({ ...chat, body }, chatToResponses(body));
    };
  return undefined;
}

/**
 * The API a body is read in: `--endpoint`, else what it looks like; a body that looks like
 * neither other API is read as the one `--as` does not write (so a mistaken body is refused by it).
 */
function sourceOf(endpoint: string | undefined, to: CallerEndpoint, body: unknown): CallerEndpoint {
  if (endpoint !== undefined) return endpointOf(endpoint) as CallerEndpoint;
  const looksLike = detectEndpoint(body);
  if (looksLike === 'messages' || looksLike === 'gemini' || to === 'messages' || to === 'gemini') return looksLike;
  return to === 'responses' ? 'chat' : 'responses';
}

async function migrateCommand(
  values: {
    as?: string;
    to?: string;
    config?: string;
    speaks?: string;
    responses?: string;
    endpoint?: string;
    model?: string;
    json?: boolean;
  },
  positionals: string[],
  stdin: NodeJS.ReadableStream,
  out: (text: string) => void,
): Promise<number> {
  const name = values.as as string;
  const target = AS_TARGETS[name];
  if (!target)
    throw new UsageError(
      `--as: chat, responses or anthropic (the request in that API: between Chat Completions, Responses and Anthropic Messages) (got "${name}")`,
    );
  const clash = (['to', 'config', 'speaks', 'responses'] as const).find((option) => values[option] !== undefined);
  if (clash)
    throw new UsageError(`--as and --${clash} exclude each other: --as shows the request in the other API, no backend is involved`);
  if (positionals.length > 1) throw new UsageError(`one request at a time (got ${positionals.length} files)`);
  const text = positionals[0] && positionals[0] !== '-' ? readText(positionals[0]) : await readAll(stdin);
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // parseBody below answers malformed JSON in the dialect's words.
  }
  const source = sourceOf(values.endpoint, target, json);
  if (source === target)
    throw new UsageError(`the request is ${titleWithArticle(dialectFor(source, undefined))} request already; --as ${name} writes one`);
  const conversion = conversionOf(source, target);
  if (!conversion)
    throw new UsageError(
      `--as converts between Chat Completions, Responses, Anthropic Messages and Gemini requests; this is ${titleWithArticle(dialectFor(source, undefined))} request`,
    );

  const validator = await createRequestValidator();
  const parsed = parseBody(validator, text, { endpoint: source, ...(values.model !== undefined ? { model: values.model } : {}) });
  const from = parsed.dialect;
  const to = dialectFor(target, undefined);
  let document: MigrationDocument;
  // A field the proxy refuses (previous_response_id without a response store, a hosted tool,
  // audio output) is still a field of the API: the exact tables say what becomes of it.
  const refusedByProxy = (parsed.error?.body.error as { code?: unknown } | undefined)?.code === 'unsupported_parameter';
  const exact = ![source, target].some((api) => api === 'messages' || api === 'gemini');
  if (!parsed.request && !(refusedByProxy && exact)) {
    const looksLike = detectEndpoint(parsed.body);
    const hint = Object.keys(parsed.body).length > 0 && looksLike !== source ? looksLike : undefined;
    document = {
      object: 'dialect.migration',
      from: from.name,
      to: to.name,
      verdict: 'invalid',
      changes: [],
      error: parsed.error as NonNullable<typeof parsed.error>,
    };
    out(values.json ? `${JSON.stringify(document, null, 2)}\n` : renderMigration(document, hint));
    return 2;
  }
  let migration: Migration;
  try {
    migration = await conversion(parsed);
  } catch (error) {
    if (error instanceof MigrationRefused) throw new InputError(error.message);
    throw error;
  }
  // The request written must be one the other dialect takes: a conversion that writes anything else is a bug.
  try {
    parseCallerRequest(validator, to, migration.body);
  } catch (error) {
    const failure = toProxyError(error);
    throw new Error(
      `the ${dialectTitle(to.name)} request written does not parse (${failure.param ? `${failure.param}: ` : ''}${failure.message}); please report this with the request`,
      { cause: error },
    );
  }
  document = {
    object: 'dialect.migration',
    from: from.name,
    to: to.name,
    verdict: migrationVerdict(migration.changes),
    changes: migration.changes,
    body: migration.body,
  };
  out(values.json ? `${JSON.stringify(document, null, 2)}\n` : renderMigration(document));
  return document.verdict === 'lossless' ? 0 : 1;
}
