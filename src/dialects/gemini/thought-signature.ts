/**
 * A Gemini `thoughtSignature` the proxy makes: the reasoning a backend signed (an Anthropic backend's
 * thinking, its signature and redacted blocks), sealed (../sealer.ts) so the caller hands it back
 * unread on the model turn, as Gemini's clients hand back Google's own. One the proxy did not make
 * (Google's, a recorded one) means nothing to any backend here: it is left out, in a warning.
 */
import type { DialectContext } from '../dialect.js';
import { sealedReasoningOf, type SealedReasoning } from '../sealed-reasoning.js';

/** What the proxy's sealed values start with (sealer.ts). */
const SEALED_PREFIX = 'dpx1.';

/** The signature to send, when the backend signed its reasoning and the proxy has a sealer. */
export function sealThoughtSignature(reasoning: SealedReasoning, context: DialectContext | undefined): string | undefined {
  if (!context?.sealer || (reasoning.signature === undefined && !reasoning.redacted?.length)) return undefined;
  return context.sealer.seal('thought-signature', reasoning);
}

/**
 * A signature back: what it held; undefined for one the proxy did not make (or cannot read: no sealer).
 * One that looks like the proxy's but was altered is a 400 naming `param` (the sealer's).
 */
export function openThoughtSignature(value: string, param: string, context: DialectContext | undefined): SealedReasoning | undefined {
  if (!value.startsWith(SEALED_PREFIX) || !context?.sealer) return undefined;
  return sealedReasoningOf(context.sealer.open('thought-signature', value, param));
}

export function foreignSignatureWarning(param: string): string {
  return `${param}: a thoughtSignature this proxy did not make (Google's own, or recorded) was left out: no backend here can read it`;
}
