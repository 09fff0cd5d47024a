/**
 * `dialect-proxy audit FILE.jsonl [--to KIND[,KIND...] | --config FILE] [--max-line-bytes N] [--json]`:
 * the migration aid over real traffic. Reads recorded requests, one JSON
 * object per line (the body, or `{"body": ..., "endpoint": ...}` with the
 * endpoint, or a `path`, naming the dialect: chat, completions, responses), runs each
 * through the same translation report as `translate` and the dry run, and
 * prints per target how many translate losslessly, lossily (which fields, how
 * often) or not at all. The file is streamed: memory stays flat however long
 * it is (the counts are per field, never per request), and a line longer than
 * a request body may be is not read but counted unreadable, by its number.
 * What it prints of the file is escaped (escaping-writer.ts).
 *
 * Exit codes: 0 every request lossless on every target, 1 some lossy, 2 some
 * rejected, malformed, unreadable or unrouted (or the command cannot run).
 */
import { createReadStream, statSync } from 'node:fs';
import { DIALECTS } from '../dialects/registry.js';
import { ConfigError, loadConfig } from '../runtime/configuration.js';
import { DEFAULT_MAX_BODY_BYTES } from '../config/settings.js';
import { parseCommandLine, UsageError } from './parse-command-line.js';
import { fileProblem } from '../config/file-problem.js';
import { DEFAULT_PROFILES } from './fields/backend-profiles.js';
import type { Change, ChangeAction } from '../pipeline/report/translation-report.js';
import { progressBar, renderAudit } from './audit-output.js';
import type { AuditSummary, ChangeCount, TargetSummary } from './audit-summary.js';
import {
  createTranslator,
  endpointNamed,
  parseBody,
  TargetError,
  withoutRefusedFields,
  type CallerEndpoint,
  type Translator,
} from './translate.js';
import { isRecord } from '../model/is-record.js';
import { escapeControls } from '../logging/logger.js';
import { escapingWriter } from './escaping-writer.js';
import { readBoundedLines } from './read-bounded-lines.js';

export const auditUsage = `Usage: dialect-proxy audit FILE.jsonl [--to KIND[,KIND...] | --config FILE] [--max-line-bytes N] [--json]

Reads recorded requests, one JSON object per line: the request body, or
{"body": {...}, "endpoint": "/v1/chat/completions"} as logs are often exported
("endpoint", or "path", may be chat, completions, responses or a path such as
/v1/responses; without it, a body with "messages" is chat, one with "prompt"
completions, one with "input" or "instructions" a Responses request). For each
target, prints how many requests translate losslessly, lossily (which fields,
how often) or not at all. Nothing is sent.

  --to KIND[,KIND]  default backends of these kinds (${DEFAULT_PROFILES.map(({ name }) => name).join(', ')});
                    may repeat; without --to or --config: every kind
  --config FILE     route each request as this configuration does (a table per backend)
  --max-line-bytes N  a longer line is not read, and counted unreadable (default: the config's
                    server.maxBodyBytes, ${DEFAULT_MAX_BODY_BYTES} without --config)
  --json            one JSON document on stdout, for scripts
  --help, -h        this text

The file is streamed (FILE "-" reads stdin); a terminal gets a progress bar on stderr.
Exit codes: 0 every request lossless, 1 some lossy, 2 some rejected, malformed or unreadable.`;

export interface AuditIo {
  out?: (text: string) => void;
  err?: (text: string) => void;
  stdin?: NodeJS.ReadableStream;
  /** Draw a progress bar on `err` (default: when stderr is a terminal). */
  progress?: boolean;
}

/**
 * Runs the command; returns the exit code.
 * @example process.exitCode = await runAuditCommand(['requests.jsonl', '--to', 'openai']);
 */
export async function runAuditCommand(args: string[], io: AuditIo = {}): Promise<number> {
  const rawErr = io.err ?? ((text: string) => process.stderr.write(text));
  // What comes from the file, the config or the command line is escaped; the progress bar's own controls are not.
  const out = escapingWriter(io.out ?? ((text: string) => process.stdout.write(text)));
  const err = escapingWriter(rawErr);
  try {
    const parsed = parseCommandLine({
      args,
      allowPositionals: true,
      options: {
        to: { type: 'string', short: 't', multiple: true },
        config: { type: 'string', short: 'c' },
        'max-line-bytes': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    const { values, positionals } = parsed;
    if (values.help) {
      out(`${auditUsage}\n`);
      return 0;
    }
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? 'which file? (FILE.jsonl, or - for stdin)' : 'one file at a time');
    if (values.to && values.config) throw new UsageError('--to and --config exclude each other');
    const maxLineBytes = values['max-line-bytes'] === undefined ? undefined : byteCount(values['max-line-bytes']);
    const file = positionals[0];
    const summary = await audit(file, {
      ...(values.config
        ? { config: values.config }
        : {
            kinds:
              values.to
                ?.flatMap((kind) => kind.split(','))
                .map((kind) => kind.trim())
                .filter(Boolean) ?? DEFAULT_PROFILES.map(({ name }) => name),
          }),
      ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
      ...(file === '-' ? { stdin: io.stdin ?? process.stdin } : {}),
      ...((io.progress ?? process.stderr.isTTY === true) && file !== '-' ? { progress: rawErr } : {}),
    });
    out(values.json ? `${JSON.stringify(summary, null, 2)}\n` : renderAudit(summary));
    return exitCodeOfAudit(summary);
  } catch (error) {
    const known = error instanceof UsageError || error instanceof TargetError || error instanceof ConfigError;
    // The requests file (a config file's problems are ConfigErrors).
    const unreadable =
      (error as NodeJS.ErrnoException)?.syscall === 'open'
        ? `cannot read ${(error as NodeJS.ErrnoException).path}: ${fileProblem(error)}`
        : undefined;
    const message = known ? error.message : (unreadable ?? `failed: ${(error as Error)?.message ?? String(error)}`);
    err(`dialect-proxy audit: ${escapeControls(message)}\n`);
    if (error instanceof UsageError) err(`\n${auditUsage}\n`);
    return 2;
  }
}

export function exitCodeOfAudit(summary: AuditSummary): 0 | 1 | 2 {
  const notAtAll =
    summary.unreadable +
    summary.malformed.requests +
    (summary.unrouted ?? 0) +
    summary.targets.reduce((sum, target) => sum + target.rejected, 0);
  if (notAtAll > 0) return 2;
  return summary.targets.some((target) => target.lossy > 0) ? 1 : 0;
}

/** `--max-line-bytes`: a whole number of bytes, at least 1. */
function byteCount(value: string): number {
  const bytes = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`--max-line-bytes: a number of bytes, at least 1 (got "${value}")`);
  return bytes;
}

interface AuditOptions {
  kinds?: string[];
  config?: string;
  /** A longer line is not read (default: the config's server.maxBodyBytes, or its default). */
  maxLineBytes?: number;
  stdin?: NodeJS.ReadableStream;
  /** Where to draw a progress bar. */
  progress?: (text: string) => void;
}

/** Per target while reading: counts, and each (field, action) once per request. */
interface Tally {
  summary: TargetSummary;
  changes: Map<string, ChangeCount>;
}

/**
 * Reads the file line by line and tallies each request on each target.
 * @example const summary = await audit('requests.jsonl', { kinds: ['openai'] }); summary.targets[0].rejected
 */
export async function audit(file: string, options: AuditOptions): Promise<AuditSummary> {
  const translators: { translator: Translator; name?: string }[] = [];
  // Nothing is sent: an API key the file reads from the environment need not be set.
  const config = options.config ? loadConfig(options.config, process.env, { unsetVariables: 'empty' }) : undefined;
  try {
    if (config) translators.push({ translator: await createTranslator({ config }) });
    else for (const kind of options.kinds ?? []) translators.push({ translator: await createTranslator({ kind }), name: kind });
    const [{ translator: first }] = translators;
    const tallies = new Map<string, Tally>();
    const tallyOf = (target: string, kind: string, speaks: readonly string[]) => {
      let tally = tallies.get(target);
      if (!tally) {
        tally = {
          summary: { target, kind, speaks: [...speaks], requests: 0, lossless: 0, lossy: 0, rejected: 0, changes: [] },
          changes: new Map(),
        };
        tallies.set(target, tally);
      }
      return tally;
    };
    // --to targets are listed even when no request reaches them.
    for (const { translator, name } of translators) {
      if (name) tallyOf(name, name, translator.match('').backend.adapter.capabilities.speaks);
    }
    const summary: AuditSummary = {
      object: 'dialect.audit',
      file,
      lines: 0,
      unreadable: 0,
      unreadableLines: [],
      malformed: { requests: 0, fields: [] },
      ...(config ? { unrouted: 0 } : {}),
      targets: [],
    };
    const malformed = new Map<string, AuditSummary['malformed']['fields'][number]>();

    const total = options.progress && !options.stdin ? statSync(file).size : 0;
    const progress = options.progress ? progressBar(options.progress, total) : undefined;
    const input = (options.stdin ?? createReadStream(file)) as AsyncIterable<Buffer | string>;
    // Every line is held whole to be parsed: none may be longer than a request body the proxy takes.
    const maxLineBytes = options.maxLineBytes ?? config?.server.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let bytes = 0;
    let lineNumber = 0;
    for await (const { text: line, bytes: lineBytes } of readBoundedLines(input, maxLineBytes)) {
      bytes += lineBytes;
      lineNumber += 1; // the file's own numbering, blank lines included, as an editor shows it
      progress?.update(bytes, summary.lines);
      if (line === undefined) {
        summary.lines += 1;
        summary.unreadable += 1;
        const tooLong = (summary.tooLong ??= { maxLineBytes, lines: 0, lineNumbers: [] });
        tooLong.lines += 1;
        if (tooLong.lineNumbers.length < MAX_LINES_LISTED) tooLong.lineNumbers.push(lineNumber);
        continue;
      }
      if (line.trim() === '') continue;
      summary.lines += 1;
      const record = readRecord(line);
      if (!record) {
        summary.unreadable += 1;
        // The first ones only: memory stays flat however many there are.
        if (summary.unreadableLines.length < MAX_LINES_LISTED) summary.unreadableLines.push(lineNumber);
        continue;
      }
      const endpoint = record.endpoint ? { endpoint: record.endpoint } : {};
      const read = parseBody(first.validator, record.body, endpoint);
      const countMalformed = () => {
        summary.malformed.requests += 1;
        const error = (read.error?.body.error ?? {}) as { param?: string | null; message?: string };
        const field = normalise(error.param ?? '(request)');
        const known = malformed.get(field);
        if (known) known.requests += 1;
        else malformed.set(field, { field, requests: 1, line: lineNumber, reason: error.message ?? '' });
      };
      // A valid request whose dialect refuses fields the proxy does not serve is rejected, not malformed:
      // each such field is taken out, once for every target (translate.ts), and reported first.
      const { parsed, refused } = withoutRefusedFields(first.validator, read);
      const { request } = parsed;
      if (!request) {
        countMalformed();
        continue;
      }
      for (const { translator, name } of translators) {
        const translation = await translator.assess({ ...parsed, request }, refused);
        if (translation.verdict === 'invalid') {
          // Only routing can fail here (the parse succeeded): a model no configured route serves.
          summary.unrouted = (summary.unrouted ?? 0) + 1;
          continue;
        }
        const { report } = translation;
        const tally = tallyOf(name ?? report.backend, report.kind, translator.match(request.model).backend.adapter.capabilities.speaks);
        tally.summary.requests += 1;
        tally.summary[report.verdict] += 1;
        count(tally, report.changes);
      }
    }
    progress?.done();
    summary.malformed.fields = [...malformed.values()].sort((a, b) => b.requests - a.requests);
    summary.targets = [...tallies.values()].map(({ summary: target, changes }) => ({
      ...target,
      changes: [...changes.values()].sort(byWeight),
    }));
    return summary;
  } finally {
    for (const { translator } of translators) await translator.close();
  }
}

/** Unreadable lines whose numbers the summary keeps. */
const MAX_LINES_LISTED = 20;

/** The keys of a request body: a line with one of them is the body itself, not a wrapper. */
const BODY_KEYS = ['messages', 'prompt', 'input', 'instructions', 'contents'];

/**
 * A line as a request: the body itself, or `{body, endpoint}` (or `{body, path}`):
 * `chat`, `completions`, `responses` or a path (`/v1/responses`). Without one the
 * body's keys say (translate.ts, `dialectFor`).
 * @example readRecord('{"body": {"model": "m", "input": "Hi"}, "path": "/v1/responses"}') // {body: {...}, endpoint: 'responses'}
 */
export function readRecord(line: string): { body: Record<string, unknown>; endpoint?: CallerEndpoint } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const wrapped = isRecord(value.body) && !BODY_KEYS.some((key) => key in value);
  if (!wrapped) return { body: value };
  const where = [value.endpoint, value.path].find((named): named is string => typeof named === 'string');
  const endpoint = where === undefined ? undefined : endpointNamed(where);
  // A routed dialect's path names the model (Gemini's `/v1beta/models/gemini-2.5-pro:generateContent`), which the body does not.
  const path = where?.replace(/^[a-z]+:\/\/[^/]+/i, '');
  const model = path === undefined ? undefined : DIALECTS.map(({ route }) => route?.match(path)).find(Boolean)?.model;
  const body = value.body as Record<string, unknown>;
  return { body: model !== undefined && body.model === undefined ? { ...body, model } : body, ...(endpoint ? { endpoint } : {}) };
}

/** `messages[3].reasoning_content` and `messages[0].reasoning_content` are one field in a tally. */
const normalise = (field: string) => field.replace(/\[\d+\]/g, '[*]');

function count(tally: Tally, changes: readonly Change[]): void {
  const seen = new Set<string>();
  for (const change of changes) {
    const field = normalise(change.field);
    const key = `${field}\u0000${change.action}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const known = tally.changes.get(key);
    if (known) known.requests += 1;
    else
      tally.changes.set(key, {
        field,
        action: change.action,
        ...(change.to ? { to: change.to } : {}),
        lossy: change.lossy,
        requests: 1,
        reason: change.reason,
      });
  }
}

const ACTION_RANK: Record<ChangeAction, number> = { rejected: 0, dropped: 1, converted: 2, emulated: 3, renamed: 4 };

/** What loses most first: rejected, dropped, lossy, then the rest; each by how often. */
function byWeight(a: ChangeCount, b: ChangeCount): number {
  const rank = (change: ChangeCount) => (change.lossy ? 0 : 10) + ACTION_RANK[change.action];
  return rank(a) - rank(b) || b.requests - a.requests || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0);
}
