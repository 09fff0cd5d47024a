/**
 * A chat choice's `logprobs`: OpenAI's `{content, refusal}` (with `top_logprobs`
 * always an array), or the legacy object when a Fireworks caller sent the
 * integer form `logprobs: N`. Null unless the caller asked.
 */
import type { NeutralRequest } from '../../model/request.js';
import {
  toChatLogprobs,
  toLegacyLogprobs,
  withTextOffsets,
  type ChatLogprobEntry,
  type LegacyLogprobs,
  type TokenLogprob,
} from '../../model/logprobs.js';

export type ChatLogprobsBody = { content: ChatLogprobEntry[] | null; refusal: null } | LegacyLogprobs | null;

/** `offset`: where the entries' text starts in the message content (legacy `text_offset`). */
export function chatLogprobsBody(entries: readonly TokenLogprob[] | undefined, request: NeutralRequest, offset = 0): ChatLogprobsBody {
  const asked = request.logprobs;
  if (!asked) return null;
  if (asked.shape === 'legacy') return entries ? toLegacyLogprobs(withTextOffsets(entries, offset), asked.top) : null;
  // `content: null` says "the backend gave none", where `[]` would claim zero tokens.
  const content = entries ? toChatLogprobs(entries, asked.top, { tokenIds: request.returnTokenIds === true }) : null;
  return { content, refusal: null };
}
