/** What `dialect-proxy translate` prints: the readable report of a translation, of a translated reply and of `--as`, and the JSON documents. */
import type { CallerEndpoint, Translation } from './translate.js';
import type { ResponseTranslation } from './translate-responses.js';
import { DIALECTS } from '../dialects/registry.js';
import { IN_PROCESS, type Change } from '../pipeline/report/translation-report.js';
import type { Migration, MigrationVerdict } from './migrate/chat-responses.js';
import { escapeControls } from '../logging/logger.js';
import { escapeLines } from './escaping-writer.js';

/** The JSON document: the report, or for a request the dialect refuses, why. */
export function documentOf(translation: Translation): Record<string, unknown> {
  if (translation.verdict !== 'invalid') return { ...translation.report };
  return {
    object: 'dialect.dry_run',
    dialect: translation.dialect.name,
    verdict: 'invalid',
    changes: [],
    warnings: [],
    upstream: [],
    error: translation.error,
  };
}

/** A dialect as reports call it (`Dialect.title`), from its name. */
export function dialectTitle(name: string): string {
  return DIALECTS.find((dialect) => dialect.name === name)?.title ?? name;
}

const VERDICTS = {
  lossless: 'LOSSLESS (exit 0): the same meaning; only names and forms change',
  lossy: 'LOSSY (exit 1): something is dropped or approximated',
  rejected: 'REJECTED (exit 2): the backend would refuse this request',
  invalid: 'INVALID (exit 2): the request is malformed; no backend would see it',
} as const;

/** The readable report. Text from the request (field names, values in messages) is escaped here, per value (escaping-writer.ts). */
export function renderTranslation(translation: Translation, target: string): string {
  const lines: string[] = [];
  const dialect = translation.dialect.title;
  lines.push(`${dialect} request (${translation.dialect.path}) -> ${escapeControls(target)}`);
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
      const where = call.endpoint === IN_PROCESS ? "The bundled engine's input (no HTTP request)" : `POST ${escapeControls(call.endpoint)}`;
      lines.push(`${where}${call.stream ? ' (streamed)' : ''}`, jsonText(call.body));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The changes as a table: the action, the field (and what it became), why. */
export function renderChanges(changes: readonly Change[]): string[] {
  if (changes.length === 0) return ['No changes: the backend gets the request as it is.'];
  const rows = changes.map((change) => [
    change.action +
      (change.lossy && change.action !== 'rejected' && change.action !== 'dropped'
        ? ' (lossy)'
        : change.action === 'dropped' && !change.lossy
          ? ' (nothing lost)'
          : ''),
    escapeControls(change.to ? `${change.field} -> ${change.to}` : change.field),
    escapeControls(change.reason),
  ]);
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column].length)));
  return [
    `Changes (${changes.length}):`,
    ...rows.map(([action, field, reason]) => `  ${action.padEnd(widths[0])}  ${field.padEnd(widths[1])}  ${reason}`),
  ];
}

function describeError({ status, body }: { status: number; body: Record<string, unknown> }): string {
  const error = (body.error ?? {}) as { message?: string; code?: string | null; type?: string; param?: string | null };
  const code = error.code ?? error.type ?? 'error';
  return escapeControls(`${status} ${code}${error.param ? ` (param ${error.param})` : ''}: ${error.message ?? JSON.stringify(body)}`);
}

/** The readable form of a translated reply: a line about it, then the answer exactly as the caller reads it. */
export function renderResponse(translated: ResponseTranslation): string {
  const dialect = dialectTitle(translated.dialect);
  const path = DIALECTS.find((known) => known.name === translated.dialect)?.path ?? '';
  const from = translated.backend
    ? escapeControls(
        `backend "${translated.backend}" (kind ${translated.kind})${translated.upstream ? `, as its answer to POST ${translated.upstream.endpoint}` : ''}`,
      )
    : 'no backend';
  const lines = [
    `Recorded reply from ${from}`,
    `as ${/^[AEIOU]/.test(dialect) ? 'an' : 'a'} ${dialect} caller gets it (POST ${path}): ${translated.status}${translated.stream ? ', streamed' : ''}${translated.ok ? '' : ', an error'}`,
  ];
  const payload = translated.stream ? escapeLines(translated.sse ?? '') : `${jsonText(translated.body)}\n`;
  return `${lines.join('\n')}\n\n${payload}`;
}

/** The JSON document of `--as`. */
export interface MigrationDocument {
  object: 'dialect.migration';
  /** The caller's dialect read, and the one written. */
  from: string;
  to: string;
  verdict: MigrationVerdict | 'invalid';
  changes: Migration['changes'];
  /** The request in the other API (absent when the input is malformed). */
  body?: Record<string, unknown>;
  /** When invalid: the error the source dialect answers the request with. */
  error?: { status: number; body: Record<string, unknown> };
}

/** The readable form of `--as`: the verdict, the changes, the request in the other API. */
export function renderMigration(document: MigrationDocument, looksLike?: CallerEndpoint): string {
  const from = DIALECTS.find((dialect) => dialect.name === document.from);
  const to = DIALECTS.find((dialect) => dialect.name === document.to);
  const lines = [
    `${dialectTitle(document.from)} request (${from?.path ?? ''}) -> ${dialectTitle(document.to)} request (${to?.path ?? ''})`,
  ];
  if (document.verdict === 'invalid') {
    lines.push(
      'Verdict: INVALID (exit 2): the request is malformed',
      '',
      `The ${dialectTitle(document.from)} API answers: ${describeError(document.error as NonNullable<MigrationDocument['error']>)}`,
    );
    if (looksLike === 'chat' || looksLike === 'responses') {
      const other = looksLike === 'chat' ? 'responses' : 'chat';
      lines.push(
        `(The body looks like ${looksLike === 'chat' ? 'a Chat Completions' : 'a Responses'} request already: --as ${other} shows it in the other API.)`,
      );
    } else if (looksLike)
      lines.push('(The body looks like a Fireworks completions request: --as converts between chat and Responses only.)');
    return `${lines.join('\n')}\n`;
  }
  const untouched = document.changes.length === 0;
  lines.push(`Verdict: ${untouched ? 'LOSSLESS (exit 0): the request is the same in both APIs' : VERDICTS[document.verdict]}`);
  lines.push(
    '',
    ...renderChanges(document.changes).map((line) => line.replace('No changes: the backend gets the request as it is.', 'No changes.')),
  );
  lines.push('', `${dialectTitle(document.to)} request:`, `POST ${to?.path ?? ''}`, jsonText(document.body));
  return `${lines.join('\n')}\n`;
}

/** A JSON document as printed: JSON escapes C0 controls in strings, not DEL or C1. */
const jsonText = (value: unknown) => escapeLines(JSON.stringify(value, null, 2));
