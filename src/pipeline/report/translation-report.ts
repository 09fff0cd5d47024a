/**
 * What a translation changes, field by field: the one list that the dry run
 * (`x-dialect-dry-run`), `dialect-proxy translate`, `dialect-proxy audit` and
 * the inspector page all show. Each change names the caller's field, what
 * happened to it and why:
 *
 *  - renamed:   sent under another name, value unchanged (max_tokens -> max_completion_tokens)
 *  - converted: sent in another form with the same meaning (messages rendered into a prompt);
 *               lossy when approximated (a thinking budget sent as a named effort)
 *  - emulated:  the proxy does it itself (n fanned out, tool calls parsed out of text)
 *  - dropped:   not sent (dropUnsupported, fields the backend has no place for): lossy
 *  - rejected:  the backend would refuse the request (a 400)
 *
 * Every refusal is found in one pass: the plan runs on a copy with
 * `dropUnsupported` (each refusal is then a note, not a throw), and each field
 * the guard before the wire refuses is taken out in turn and the run repeated.
 * The rest comes from comparing the caller's body with the upstream body
 * (wire-changes.ts).
 */
import type { Dialect } from '../../dialects/dialect.js';
import { ProxyError } from '../../errors/proxy-error.js';
import { NEUTRAL_FIELDS, asksFor } from '../../model/neutral-fields.js';
import type { NeutralRequest } from '../../model/request.js';
import { dryRun, type DryRun } from './dry-run.js';
import type { PlanNote } from '../plan/plan-notes.js';
import type { PlanOptions } from '../plan/plan.js';
import type { RouteMatch } from '../plan/route-table.js';
import { fieldsNamed, wireChanges } from './wire-changes.js';

import type { Change } from './change.js';
import { pushAll } from '../../model/push-all.js';

export type { Change, ChangeAction } from './change.js';

/**
 * lossless: renames and conversions that keep the meaning; lossy: something
 * dropped or approximated; rejected: the backend would refuse the request.
 */
export type Verdict = 'lossless' | 'lossy' | 'rejected';

export interface UpstreamCall {
  /** The path under the backend's URL (`/chat/completions`, `/messages`); `(in process)` for the bundled engine. */
  endpoint: string;
  stream: boolean;
  body: Record<string, unknown>;
}

/** The endpoint of a call to an engine in this process (the bundled llama.cpp worker): no HTTP request is made. */
export const IN_PROCESS = '(in process)';

export interface TranslationReport {
  object: 'dialect.dry_run';
  /** The caller's dialect. */
  dialect: Dialect['name'];
  backend: string;
  kind: string;
  verdict: Verdict;
  changes: Change[];
  /** The lossy changes in words, as `x-dialect-warnings` says them. */
  warnings: string[];
  /** What would be sent (several requests when the proxy fans out); when rejected, what would be sent without the refused fields. */
  upstream: UpstreamCall[];
  /** When rejected: the error a caller gets, in the caller's dialect (the first refusal, as a real request meets it). */
  error?: { status: number; body: Record<string, unknown> };
}

/** The exit code of `translate` and `audit` for a verdict: 0 lossless, 1 lossy, 2 rejected. */
export function exitCodeOf(verdict: Verdict): 0 | 1 | 2 {
  return verdict === 'lossless' ? 0 : verdict === 'lossy' ? 1 : 2;
}

export interface AssessInput {
  /** The caller's request, parsed (not yet planned: it is not modified). */
  request: NeutralRequest;
  /** The caller's wire body it was parsed from. */
  body: Readonly<Record<string, unknown>>;
  dialect: Dialect;
  match: RouteMatch;
  /** The grammar budgets to plan under (the config's; the defaults without one). */
  limits?: PlanOptions['limits'];
}

/**
 * Runs the request through the real plan and wire builders (nothing is sent)
 * and lists every change. Throws only what is not a ProxyError (a bug).
 * @example const report = await assessTranslation({ request, body, dialect, match }); report.verdict // 'lossy'
 */
export async function assessTranslation({ request: pristine, body, dialect, match, limits }: AssessInput): Promise<TranslationReport> {
  const attempt = async (working: NeutralRequest, dropUnsupported?: boolean) => {
    const run = await dryRun(working, match, { ...(dropUnsupported ? { dropUnsupported } : {}), ...(limits ? { limits } : {}) });
    return { run, notes: run.notes };
  };

  let outcome: { run: DryRun; notes: readonly PlanNote[] } | undefined;
  let refusal: ProxyError | undefined;
  const refusedOnTheWire: Change[] = [];
  try {
    outcome = await attempt(pristine);
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    refusal = error;
    // Every refusal at once: the plan drops instead of throwing, and each field the guard before
    // the wire (or a converter, or a check of the plan that dropping does not silence) refuses is
    // taken out in turn.
    const working = structuredClone(pristine);
    const seen = new Set<string>();
    for (;;) {
      try {
        outcome = await attempt(working, true);
        break;
      } catch (next) {
        if (!(next instanceof ProxyError)) throw next;
        const param = next.param ?? '(request)';
        if (!seen.has(param)) refusedOnTheWire.push({ field: param, action: 'rejected', lossy: true, reason: next.message });
        if (seen.has(param) || !dropParam(working, param)) break;
        seen.add(param);
      }
    }
  }
  // The notes of the run that got through (none when a refusal could not be taken out).
  const notes = outcome?.notes ?? [];

  const dropping = match.backend.settings.dropUnsupported === true;
  const changes: Change[] = [];
  for (const note of notes) {
    if (note.kind === 'refused') {
      changes.push({
        field: note.param,
        action: dropping ? 'dropped' : 'rejected',
        lossy: true,
        reason: dropping ? `${note.reason} (dropped: dropUnsupported)` : note.reason,
      });
    } else if (note.kind === 'not-sent') {
      changes.push({ field: note.param, action: 'dropped', lossy: true, reason: `not sent: ${note.reason}` });
    } else {
      changes.push({
        field: note.param,
        action: 'converted',
        ...(note.to && note.to !== note.param ? { to: note.to } : {}),
        lossy: true,
        reason: note.reason,
      });
    }
  }
  for (const rejection of refusedOnTheWire) if (!changes.some((change) => change.field === rejection.field)) changes.push(rejection);

  const run = outcome?.run;
  // Not the drops the plan made on the copy only: a real request never gets that far.
  const warnings = (run?.warnings ?? pristine.warnings).filter(
    (warning) => dropping || !notes.some((note) => note.kind === 'refused' && warning.startsWith(`${note.param} dropped: `)),
  );
  for (const warning of warnings) {
    const change = changeOfWarning(warning);
    if (!notes.some((note) => note.param === change.field)) changes.push(change);
    // The plan's own warning is named by its note; but when the wire builder then left the field out, that is its fate.
    else if (change.action === 'dropped')
      changes.splice(
        changes.findIndex((other) => other.field === change.field),
        1,
        change,
      );
  }
  if (run && run.sent.length > 0) pushAll(changes, wireChanges({ pristine, body, dialect, match, run }, changes));

  const verdict: Verdict =
    refusal || changes.some((change) => change.action === 'rejected')
      ? 'rejected'
      : changes.some((change) => change.lossy)
        ? 'lossy'
        : 'lossless';
  const report: TranslationReport = {
    object: 'dialect.dry_run',
    dialect: dialect.name,
    backend: match.backend.name,
    kind: match.backend.settings.kind,
    verdict,
    changes: ordered(changes).map((change) => ({ ...change, reason: change.reason.replace(/ \((?:[\w-]+\/)*[\w.-]+\.ts\)/g, '') })),
    warnings,
    upstream: (run?.sent ?? []).map(({ call, endpoint, body: sent }) => ({
      endpoint: match.backend.adapter.paths?.[endpoint] ?? IN_PROCESS,
      stream: call === 'stream',
      body: sent,
    })),
  };
  if (refusal) report.error = { status: refusal.status, body: dialect.errorBody(refusal) };
  return report;
}

/** A warning made outside the plan (the dialect, the wire builder): lossy, named by its leading field. */
function changeOfWarning(warning: string): Change {
  const field = /^([A-Za-z_][\w]*(?:(?:\.[A-Za-z_]\w*)|(?:\[\d+\]))*)/.exec(warning)?.[1] ?? '(request)';
  const approximated = /was sent as|is sent as/.test(warning);
  const reason = warning.replace(/\.$/, '');
  const rest = reason.startsWith(`${field}: `)
    ? reason.slice(field.length + 2)
    : reason.startsWith(`${field} `)
      ? reason.slice(field.length + 1)
      : reason;
  return { field, action: approximated ? 'converted' : 'dropped', lossy: true, reason: rest };
}

/** Rejected first, then what else is lost, then the rest; in the order found within each. */
function ordered(changes: Change[]): Change[] {
  const rank = (change: Change) => (change.action === 'rejected' ? 0 : change.action === 'dropped' ? 1 : change.lossy ? 2 : 3);
  return changes
    .map((change, i) => ({ change, i }))
    .sort((a, b) => rank(a.change) - rank(b.change) || a.i - b.i)
    .map(({ change }) => change);
}

/**
 * Takes a refused field out of the request (for the next run of the search
 * for refusals). False when nothing can be dropped under that name.
 */
function dropParam(request: NeutralRequest, param: string): boolean {
  if (param in request.passthrough) {
    delete request.passthrough[param];
    return true;
  }
  const fields = fieldsNamed(request, param);
  for (const field of fields) NEUTRAL_FIELDS[field].drop(request);
  return fields.length > 0 && fields.every((field) => !asksFor(request, field));
}

/**
 * The answer to `x-dialect-dry-run: 1`: 200 with the report; when the backend
 * would refuse the request, the same status and error body a real request
 * gets, with the whole report beside the error as `dry_run`.
 */
export async function dryRunAnswer(input: AssessInput): Promise<{ status: number; body: Record<string, unknown> }> {
  const report = await assessTranslation(input);
  if (!report.error) return { status: 200, body: { ...report } };
  return { status: report.error.status, body: { ...report.error.body, dry_run: report } };
}
