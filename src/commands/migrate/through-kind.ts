/**
 * A request moved to or from Anthropic's Messages API or Google's Gemini API,
 * where no wire-to-wire table exists: the request is read into the neutral
 * model, as the proxy reads it, and written by the backend kind that speaks the
 * other API (`anthropic` for Messages, `gemini` for Gemini, `openai` for chat),
 * exactly as `translate --to KIND` shows it.
 * The report's changes become the migration's: a field the kind would refuse,
 * or that the proxy would do itself (n fanned out), has no counterpart in the
 * other API, so a client moving there loses it.
 */
import type { Change } from '../../pipeline/report/translation-report.js';
import type { NeutralRequest } from '../../model/request.js';
import { createTranslator, type ParsedBody } from '../translate.js';
import type { Migration } from './migration.js';

/** The kind whose wire body is a request in each API this module writes. */
const KIND_OF = { messages: 'anthropic', chat: 'openai', gemini: 'gemini' } as const;

/** Names for the reasons: "Anthropic Messages has no counterpart". */
const API_NAMES = { messages: 'the Anthropic Messages API', chat: 'Chat Completions', gemini: "Google's Gemini API" } as const;

/** Thrown when the other API's kind refuses the request outright (nothing could be written). */
export class MigrationRefused extends Error {
  override readonly name = 'MigrationRefused';
}

export async function migrateThroughKind(parsed: ParsedBody & { request: NeutralRequest }, to: keyof typeof KIND_OF): Promise<Migration> {
  const translator = await createTranslator({ kind: KIND_OF[to] });
  try {
    const translation = await translator.assess(parsed);
    if (translation.verdict === 'invalid') {
      const error = translation.error.body.error as { message?: string } | undefined;
      throw new MigrationRefused(`${API_NAMES[to]} cannot take this request: ${error?.message ?? 'refused'}`);
    }
    const [first] = translation.report.upstream;
    if (!first) throw new MigrationRefused(`${API_NAMES[to]} cannot take this request: nothing would be sent`);
    return { body: first.body, changes: translation.report.changes.map((change) => asMigrationChange(change, to)) };
  } finally {
    await translator.close();
  }
}

/** A refusal, or something only the proxy does, is a field the other API has no place for. */
function asMigrationChange(change: Change, to: keyof typeof KIND_OF): Change {
  if (change.action === 'rejected') return { ...change, action: 'dropped', lossy: true };
  if (change.action === 'emulated')
    return {
      ...change,
      action: 'dropped',
      lossy: true,
      reason: `${API_NAMES[to]} has no counterpart (the proxy would do it itself: ${change.reason})`,
    };
  return change;
}

/**
 * Two moves as one (Messages -> chat -> Responses): a change of the second move to a field the
 * first one wrote is named by the caller's field, and the first move's step to it folds into it
 * (`max_tokens -> max_output_tokens`, not `max_completion_tokens -> max_output_tokens`).
 */
export function composeMigrations(first: Migration, second: Migration): Migration {
  const folded = new Set<Change>();
  const later = second.changes.map((change) => {
    const step = first.changes.find((earlier) => earlier.to === change.field && !folded.has(earlier));
    if (!step) return change;
    folded.add(step);
    const action = step.action === 'renamed' || change.action === 'dropped' ? change.action : 'converted';
    return { ...change, field: step.field, action, lossy: change.lossy || step.lossy, reason: `${step.reason}; then ${change.reason}` };
  });
  return { body: second.body, changes: [...first.changes.filter((change) => !folded.has(change)), ...later] };
}
