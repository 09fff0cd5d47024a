/**
 * A completion choice's `logprobs`, in the shape the caller asked for: legacy
 * (`logprobs: N`) or Fireworks' new format (`logprobs: true`), whose entries add
 * `token_id`, `text_offset` and `sampling_logprob`.
 */
import type { NeutralRequest } from '../../model/request.js';
import { toChatLogprobs, toLegacyLogprobs, type ChatLogprobEntry, type LegacyLogprobs, type TokenLogprob } from '../../model/logprobs.js';

export type CompletionLogprobsBody = LegacyLogprobs | { content: ChatLogprobEntry[] };

/** `entries` carry their `textOffset` in the returned text already (see `withTextOffsets`). */
export function completionLogprobsBody(
  entries: readonly TokenLogprob[],
  asked: NonNullable<NeutralRequest['logprobs']>,
): CompletionLogprobsBody {
  if (asked.shape === 'legacy') return toLegacyLogprobs(entries, asked.top);
  return { content: toChatLogprobs(entries, asked.top, { tokenIds: true, extended: true }) };
}
