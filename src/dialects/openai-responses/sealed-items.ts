/**
 * The items the proxy seals for a caller to hand back (src/dialects/sealer.ts): a reasoning item's
 * `encrypted_content`, when the caller asks for it (`include: ["reasoning.encrypted_content"]`, as a
 * stateless client such as Codex CLI does), carries the reasoning and what the backend needs to be
 * given it again (an Anthropic signature, redacted blocks); a compaction item, the summary of what it replaced.
 */
import type { NeutralRequest } from '../../model/request.js';
import { isRecord } from '../../model/is-record.js';
import type { DialectContext } from '../dialect.js';
import type { Sealer } from '../sealer.js';
import { sealedReasoningOf, type SealedReasoning } from '../sealed-reasoning.js';

export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

/** How a compaction item's summary reads to the model, where it stands for the turns it replaced. */
export const COMPACTION_PREFIX = 'A summary of the conversation so far, which it replaces:\n\n';

/** What a reasoning item's `encrypted_content` holds. No `text`: the reasoning was longer than the proxy repeats (limits.repeatedOutputBytes). */
export type { SealedReasoning };

/** The sealer, when the caller asked for sealed reasoning and the proxy has one (the offline commands have none). */
export function reasoningSealer(request: NeutralRequest, context: DialectContext | undefined): Sealer | undefined {
  const include = request.echoedParams?.include;
  return Array.isArray(include) && include.includes(ENCRYPTED_REASONING) ? context?.sealer : undefined;
}

export function sealReasoning(sealer: Sealer, reasoning: SealedReasoning): string {
  return sealer.seal('reasoning', reasoning);
}

/** A reasoning item's `encrypted_content` back: what it held, or a 400 naming `param` for anything the proxy did not seal. */
export function openReasoning(sealer: Sealer, value: unknown, param: string): SealedReasoning {
  return sealedReasoningOf(sealer.open('reasoning', value, param));
}

/** A compaction item's `encrypted_content` back: the summary it stands for. */
export function openCompaction(sealer: Sealer, value: unknown, param: string): string {
  const opened = sealer.open('compaction', value, param);
  return isRecord(opened) && typeof opened.summary === 'string' ? opened.summary : '';
}

export function sealCompaction(sealer: Sealer, summary: string): string {
  return sealer.seal('compaction', { summary });
}
