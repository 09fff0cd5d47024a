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
 * Every refusal is found in one pass: the plan notes each one and plans on
 * without it (`collectRefusals`). The rest is read from the plan: its decision
 * for each field, its mode and fan-out, and the dialect's word on its own
 * fields (plan-changes.ts).
 */
import type { Dialect } from '../../dialects/dialect.js';
import { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import { dryRun, type DryRun } from './dry-run.js';
import type { PlanOptions } from '../plan/plan.js';
import type { RouteMatch } from '../plan/route-table.js';
import { planChanges } from './plan-changes.js';

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
  // One plan notes every refusal and plans on without them; only a refusal of the wire builder's (a value a
  // converter cannot send) or a request that is bad on any backend ends the run, and is the one refusal shown.
  let run: DryRun | undefined;
  let refusal: ProxyError | undefined;
  const refusedOnTheWire: Change[] = [];
  try {
    run = await dryRun(pristine, match, { collectRefusals: true, ...(limits ? { limits } : {}) });
    refusal = run.refusal;
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    refusal = error;
    refusedOnTheWire.push({ field: error.param ?? '(request)', action: 'rejected', lossy: true, reason: error.message });
  }
  const notes = run?.notes ?? [];

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

  const warnings = run?.warnings ?? pristine.warnings;
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
  if (run && run.sent.length > 0) pushAll(changes, planChanges({ pristine, body, dialect, match, run }, changes));

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
      endpoint:
        (call === 'stream' && match.backend.adapter.streamPaths?.[endpoint]) || (match.backend.adapter.paths?.[endpoint] ?? IN_PROCESS),
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
 * The answer to `x-dialect-dry-run: 1`: 200 with the report; when the backend
 * would refuse the request, the same status and error body a real request
 * gets, with the whole report beside the error as `dry_run`.
 */
export async function dryRunAnswer(input: AssessInput): Promise<{ status: number; body: Record<string, unknown> }> {
  const report = await assessTranslation(input);
  if (!report.error) return { status: 200, body: { ...report } };
  return { status: report.error.status, body: { ...report.error.body, dry_run: report } };
}
