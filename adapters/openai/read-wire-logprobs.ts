/**
 * A wire choice's `logprobs`, in whichever shape the backend chose -> neutral.
 * Legacy (`tokens`/`token_logprobs`/...) from OpenAI completions and Fireworks
 * `logprobs: N`; `content[]` from chat, Fireworks' new format, and llama.cpp's
 * completions (which answers a legacy request in the chat shape, with `id`).
 */
import {
  fromChatLogprobs,
  fromLegacyLogprobs,
  type ChatLogprobEntry,
  type LegacyLogprobs,
  type TokenLogprob,
} from '../../src/model/logprobs.js';
import { isRecord } from '../../src/model/is-record.js';

export function readWireLogprobs(wire: unknown): TokenLogprob[] | undefined {
  if (!isRecord(wire)) return undefined;
  if (Array.isArray(wire.content)) return fromChatLogprobs(wire.content as ChatLogprobEntry[]);
  if (Array.isArray(wire.tokens)) {
    const legacy: LegacyLogprobs = {
      tokens: wire.tokens as string[],
      token_logprobs: Array.isArray(wire.token_logprobs) ? (wire.token_logprobs as (number | null)[]) : [],
      top_logprobs: Array.isArray(wire.top_logprobs) ? (wire.top_logprobs as LegacyLogprobs['top_logprobs']) : null,
      text_offset: Array.isArray(wire.text_offset) ? (wire.text_offset as number[]) : [],
    };
    if (Array.isArray(wire.token_ids)) legacy.token_ids = wire.token_ids as number[];
    return fromLegacyLogprobs(legacy);
  }
  return undefined;
}
