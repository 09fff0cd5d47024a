/**
 * What the translation of one request changed, counted for its span: each
 * field the request asks for, by how the answering backend's table handles it
 * on the endpoint the request went to (as `dialect-proxy translate` names the
 * actions), plus the plan's own notes. Counted from the table, not from a dry
 * run of the wire (the translation report's way, too costly per request): a
 * `copy` under another name is renamed, a `convert` converted, an `emulate`
 * emulated; a refusal the plan dropped, or a field it did not send, dropped;
 * an approximation converted.
 */
import type { BackendCapabilities } from '../backend/adapter.js';
import { handlingOf } from '../backend/field-support.js';
import { NEUTRAL_FIELD_NAMES, asksFor, paramOf } from '../model/neutral-fields.js';
import type { PlanFacts } from './tracing.js';

export interface TranslationCounts {
  /** `native`, or the translation between endpoints the proxy made. */
  mode: 'native' | 'chat_over_completions' | 'completions_over_chat';
  renamed: number;
  converted: number;
  emulated: number;
  dropped: number;
}

/** The plan's translation modes as the span names them. */
const MODE_NAMES = {
  native: 'native',
  chatOverCompletions: 'chat_over_completions',
  completionsOverChat: 'completions_over_chat',
} as const satisfies Record<PlanFacts['mode'], TranslationCounts['mode']>;

export function countTranslation(plan: PlanFacts, capabilities: BackendCapabilities): TranslationCounts {
  const { request: planned, upstream, notes } = plan;
  const counts: TranslationCounts = { mode: MODE_NAMES[plan.mode], renamed: 0, converted: 0, emulated: 0, dropped: 0 };
  for (const field of NEUTRAL_FIELD_NAMES) {
    if (!asksFor(planned, field)) continue;
    const handling = handlingOf(capabilities.fields, field, upstream);
    if (handling.kind === 'copy' && handling.wire !== paramOf(planned, field).split(/[.[]/)[0]) counts.renamed++;
    else if (handling.kind === 'convert') counts.converted++;
    else if (handling.kind === 'emulate') counts.emulated++;
  }
  for (const note of notes) {
    if (note.kind === 'approximated') counts.converted++;
    else counts.dropped++; // a refusal that reached here was dropped (dropUnsupported); `not-sent` was left out
  }
  return counts;
}
