/**
 * Gemini's `thoughtSignature` on a functionCall must come back with that call on
 * the next turn (Gemini 3 answers 400 without it). No caller dialect has a place
 * for it, but every one returns a tool call's id as it was given: so the
 * signature rides in the id the kind hands out, `<id>` + MARKER + base64url of
 * the signature, in characters both Anthropic's tool_use ids (`^[a-zA-Z0-9_-]+$`)
 * and OpenAI's take, and is read back from the id when the history returns.
 */

/** Between the call's own id and its signature; no id Gemini or this kind makes contains it. */
const MARKER = '__gts_';

/**
 * Google's documented stand-in for a functionCall that never had a signature (a
 * history from another model): https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/**
 * @example withSignature('call_1', 'c2ln') // 'call_1__gts_YzJsbg'
 * @example withSignature('call_1', undefined) // 'call_1'
 */
export function withSignature(id: string, signature: string | undefined): string {
  if (signature === undefined || signature === '') return id;
  return `${id}${MARKER}${Buffer.from(signature, 'utf8').toString('base64url')}`;
}

/**
 * The call's own id and the signature its id carries, if any.
 * @example readSignature('call_1__gts_YzJsbg') // {id: 'call_1', signature: 'c2ln'}
 */
export function readSignature(encoded: string): { id: string; signature?: string } {
  const at = encoded.indexOf(MARKER);
  if (at < 0) return { id: encoded };
  const tail = encoded.slice(at + MARKER.length);
  // Not ours after all (not base64url): the id stays as it came.
  if (!/^[A-Za-z0-9_-]+$/.test(tail)) return { id: encoded };
  return { id: encoded.slice(0, at), signature: Buffer.from(tail, 'base64url').toString('utf8') };
}
