/**
 * Neutral per-token log probabilities, and the one converter between them and
 * both wire shapes: legacy (`tokens`, `token_logprobs`, `top_logprobs` maps,
 * `text_offset`) and chat/new (`content[]` with `bytes` and `top_logprobs[]`).
 */

/** How the caller asked for logprobs: integer `logprobs: N` (legacy) or `logprobs: true` + `top_logprobs` (chat). */
export type LogprobsShape = 'legacy' | 'chat';

export interface TokenAlternative {
  token: string;
  logprob: number;
  tokenId?: number;
  /** UTF-8 bytes; `null` when the token has none (OpenAI sends `bytes: null` for some special tokens). */
  bytes?: number[] | null;
}

export interface TokenLogprob extends TokenAlternative {
  /** Alternatives, most likely first; may include the sampled token itself. */
  top: TokenAlternative[];
  /**
   * Character offset of this token, as the backend reported it (in the backend's
   * own text). Dialects recompute offsets in the text they return.
   */
  textOffset?: number;
  samplingLogprob?: number | null;
  /**
   * The model scored no logprob here (the first prompt token of an echo has no
   * context): legacy shows `null` in `token_logprobs` and `top_logprobs`, chat a
   * `null` logprob; `logprob` is then 0 and means nothing.
   */
  noLogprob?: boolean;
  /** Fireworks `sampling_mask` (new format): tokens still eligible after top_p/top_k, and optionally which. */
  samplingMaskCount?: number | null;
  samplingMask?: number[] | string | null;
}

export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: (number | null)[];
  top_logprobs: (Record<string, number> | null)[] | null;
  text_offset: number[];
  token_ids?: number[];
}

export interface ChatLogprobAlternative {
  token: string;
  logprob: number;
  bytes: number[] | null;
  token_id?: number;
}

export interface ChatLogprobEntry extends Omit<ChatLogprobAlternative, 'logprob'> {
  /** `null` only for an unscored echoed prompt token (Fireworks' new format with echo). */
  logprob: number | null;
  top_logprobs: ChatLogprobAlternative[];
  text_offset?: number;
  sampling_logprob?: number | null;
  sampling_mask_count?: number | null;
  sampling_mask?: number[] | string | null;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a token's text (used when the backend gave none). */
export function utf8Bytes(text: string): number[] {
  return Array.from(encoder.encode(text));
}

/**
 * Length in characters (Unicode code points), as the legacy format counts
 * `text_offset`; a JS string's `length` counts UTF-16 units, two for an emoji.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Character offsets of each token, counting from `start` (legacy `text_offset`). */
export function textOffsets(tokens: readonly string[], start = 0): number[] {
  const offsets: number[] = [];
  let at = start;
  for (const token of tokens) {
    offsets.push(at);
    at += characterCount(token);
  }
  return offsets;
}

/** Copies of `entries` whose `textOffset` counts token texts from `start` (the frame of the text a dialect returns). */
export function withTextOffsets(entries: readonly TokenLogprob[], start: number): TokenLogprob[] {
  const offsets = textOffsets(
    entries.map((entry) => entry.token),
    start,
  );
  return entries.map((entry, i) => ({ ...entry, textOffset: offsets[i] }));
}

/** Neutral -> legacy completions logprobs. `top_logprobs` maps keep at most `top` entries. */
export function toLegacyLogprobs(entries: readonly TokenLogprob[], top: number, offsetStart = 0): LegacyLogprobs {
  const tokens = entries.map((entry) => entry.token);
  const computed = textOffsets(tokens, offsetStart);
  const offsets = entries.map((entry, i) => entry.textOffset ?? computed[i]);
  const legacy: LegacyLogprobs = {
    tokens,
    token_logprobs: entries.map((entry) => (entry.noLogprob ? null : entry.logprob)),
    top_logprobs: entries.map((entry) => (entry.noLogprob && entry.top.length === 0 ? null : alternativesMap(entry, top))),
    text_offset: offsets,
  };
  if (entries.length > 0 && entries.every((entry) => entry.tokenId !== undefined)) {
    legacy.token_ids = entries.map((entry) => entry.tokenId as number);
  }
  return legacy;
}

/** The legacy map holds the sampled token plus up to `top` alternatives (so up to top+1 keys). */
function alternativesMap(entry: TokenLogprob, top: number): Record<string, number> {
  const map: Record<string, number> = {};
  for (const alternative of entry.top.slice(0, top)) map[alternative.token] = alternative.logprob;
  if (!entry.noLogprob && !(entry.token in map)) map[entry.token] = entry.logprob;
  return map;
}

/** Legacy -> neutral. Alternatives come back sorted, most likely first. */
export function fromLegacyLogprobs(legacy: LegacyLogprobs): TokenLogprob[] {
  return legacy.tokens.map((token, i) => {
    const map = legacy.top_logprobs?.[i] ?? {};
    const logprob = legacy.token_logprobs[i] ?? null;
    const entry: TokenLogprob = {
      token,
      logprob: logprob ?? 0,
      top: Object.entries(map)
        .map(([alternative, logprob]) => ({ token: alternative, logprob }))
        .sort((a, b) => b.logprob - a.logprob),
      textOffset: legacy.text_offset[i],
    };
    if (logprob === null) entry.noLogprob = true;
    if (legacy.token_ids) entry.tokenId = legacy.token_ids[i];
    return entry;
  });
}

export interface ChatLogprobsOptions {
  /** Add `token_id` where the backend gave one. */
  tokenIds?: boolean;
  /** Fireworks' new-format extras: `text_offset` (where known) and `sampling_logprob` (`null` when unknown). */
  extended?: boolean;
}

/** Neutral -> chat `logprobs.content[]`; `top` alternatives each (never null: `[]` when none asked). */
export function toChatLogprobs(entries: readonly TokenLogprob[], top: number, options: ChatLogprobsOptions = {}): ChatLogprobEntry[] {
  return entries.map((entry) => {
    const out: ChatLogprobEntry = {
      token: entry.token,
      logprob: entry.noLogprob ? null : entry.logprob,
      bytes: entry.bytes === undefined ? utf8Bytes(entry.token) : entry.bytes,
      top_logprobs: entry.top.slice(0, top).map((alternative) => chatAlternative(alternative, options.tokenIds)),
    };
    if (options.tokenIds && entry.tokenId !== undefined) out.token_id = entry.tokenId;
    if (options.extended) {
      out.sampling_logprob = entry.samplingLogprob ?? null;
      if (entry.textOffset !== undefined) out.text_offset = entry.textOffset;
      if (entry.samplingMaskCount !== undefined) out.sampling_mask_count = entry.samplingMaskCount;
      if (entry.samplingMask !== undefined) out.sampling_mask = entry.samplingMask;
    }
    return out;
  });
}

function chatAlternative(alternative: TokenAlternative, tokenIds?: boolean): ChatLogprobAlternative {
  const out: ChatLogprobAlternative = {
    token: alternative.token,
    logprob: alternative.logprob,
    bytes: alternative.bytes === undefined ? utf8Bytes(alternative.token) : alternative.bytes,
  };
  if (tokenIds && alternative.tokenId !== undefined) out.token_id = alternative.tokenId;
  return out;
}

/** Chat `content[]` -> neutral. Accepts llama.cpp's `id` as well as Fireworks' `token_id`. */
export function fromChatLogprobs(content: readonly (ChatLogprobEntry & { id?: number })[]): TokenLogprob[] {
  return content.map((item) => {
    const entry: TokenLogprob = {
      token: item.token,
      logprob: item.logprob ?? 0,
      top: (item.top_logprobs ?? []).map((alternative: ChatLogprobAlternative & { id?: number }) => {
        const out: TokenAlternative = { token: alternative.token, logprob: alternative.logprob };
        if (alternative.bytes !== undefined) out.bytes = alternative.bytes;
        const tokenId = alternative.token_id ?? alternative.id;
        if (tokenId !== undefined) out.tokenId = tokenId;
        return out;
      }),
    };
    if (item.logprob === null) entry.noLogprob = true;
    if (item.bytes !== undefined) entry.bytes = item.bytes;
    const tokenId = item.token_id ?? item.id;
    if (tokenId !== undefined) entry.tokenId = tokenId;
    if (item.text_offset !== undefined) entry.textOffset = item.text_offset;
    if (item.sampling_logprob !== undefined) entry.samplingLogprob = item.sampling_logprob;
    if (item.sampling_mask_count !== undefined) entry.samplingMaskCount = item.sampling_mask_count;
    if (item.sampling_mask !== undefined) entry.samplingMask = item.sampling_mask;
    return entry;
  });
}
