/**
 * The one logprobs converter is lossless on valid wire input: legacy -> neutral
 * -> legacy and chat -> neutral -> chat give back exactly what went in.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  fromChatLogprobs,
  fromLegacyLogprobs,
  toChatLogprobs,
  toLegacyLogprobs,
  type ChatLogprobAlternative,
  type ChatLogprobEntry,
  type LegacyLogprobs,
} from '../../../../src/model/logprobs.js';

const TOP = 3;
const tokenText = fc.string({ maxLength: 6 }).filter((text) => text !== '__proto__');
const logprob = fc.double({ min: -30, max: 0, noNaN: true });
const bytes = fc.option(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }), { nil: null });

/**
 * One legacy position: the sampled token plus up to TOP distinct alternatives; when
 * the map is full (TOP+1 keys) the sampled token is the extra one, so it is the least likely.
 */
const legacyPosition = fc
  .uniqueArray(fc.tuple(tokenText, logprob), { minLength: 1, maxLength: TOP + 1, selector: ([text]) => text })
  .filter((pairs) => new Set(pairs.map(([, value]) => value)).size === pairs.length)
  .map((pairs) => {
    const sorted = [...pairs].sort((a, b) => b[1] - a[1]);
    const sampled = pairs.length === TOP + 1 ? sorted[sorted.length - 1] : pairs[0];
    return { token: sampled[0], logprob: sampled[1] as number | null, map: Object.fromEntries(pairs) as Record<string, number> | null };
  });
/** The first prompt token of an echo: no logprob, no alternatives. */
const unscored = tokenText.map((text) => ({ token: text, logprob: null as number | null, map: null as Record<string, number> | null }));

const legacy: fc.Arbitrary<LegacyLogprobs> = fc
  .tuple(fc.array(fc.oneof({ weight: 5, arbitrary: legacyPosition }, { weight: 1, arbitrary: unscored }), { maxLength: 8 }), fc.boolean())
  .chain(([positions, withIds]) =>
    fc
      .tuple(
        fc.array(fc.nat(10_000), { minLength: positions.length, maxLength: positions.length }),
        fc.array(fc.nat(5_000), { minLength: positions.length, maxLength: positions.length }),
      )
      .map(([offsets, ids]) => {
        const out: LegacyLogprobs = {
          tokens: positions.map((position) => position.token),
          token_logprobs: positions.map((position) => position.logprob),
          top_logprobs: positions.map((position) => position.map),
          text_offset: offsets,
        };
        if (withIds && positions.length > 0) out.token_ids = ids;
        return out;
      }),
  );

/** OpenAI's shape, or Fireworks' new format (token ids, text_offset, sampling_logprob everywhere). */
const chatContent = (extended: boolean): fc.Arbitrary<ChatLogprobEntry[]> => {
  const alternative: fc.Arbitrary<ChatLogprobAlternative> = fc
    .record({ token: tokenText, logprob, bytes, token_id: fc.nat(5_000) })
    .map(({ token_id, ...rest }) => (extended ? { ...rest, token_id } : rest));
  const entry: fc.Arbitrary<ChatLogprobEntry> = fc
    .record({
      token: tokenText,
      logprob: extended ? fc.option(logprob, { nil: null }) : logprob,
      bytes,
      top_logprobs: fc.array(alternative, { maxLength: TOP }),
      token_id: fc.nat(5_000),
      text_offset: fc.nat(10_000),
      sampling_logprob: fc.option(logprob, { nil: null }),
    })
    .map(({ token_id, text_offset, sampling_logprob, ...rest }) =>
      extended ? { ...rest, token_id, text_offset, sampling_logprob } : rest,
    );
  return fc.array(entry, { maxLength: 8 });
};

describe('logprobs round trips', () => {
  it('legacy -> neutral -> legacy is the identity', () => {
    fc.assert(
      fc.property(legacy, (wire) => {
        expect(toLegacyLogprobs(fromLegacyLogprobs(wire), TOP)).toStrictEqual(wire);
      }),
    );
  });

  it('chat -> neutral -> chat is the identity (OpenAI shape)', () => {
    fc.assert(
      fc.property(chatContent(false), (wire) => {
        expect(toChatLogprobs(fromChatLogprobs(wire), TOP)).toStrictEqual(wire);
      }),
    );
  });

  it('chat -> neutral -> chat is the identity (Fireworks new format)', () => {
    fc.assert(
      fc.property(chatContent(true), (wire) => {
        expect(toChatLogprobs(fromChatLogprobs(wire), TOP, { tokenIds: true, extended: true })).toStrictEqual(wire);
      }),
    );
  });

  it('example: OpenAI `bytes: null` for a special token survives', () => {
    const wire: ChatLogprobEntry[] = [
      { token: ' How', logprob: -0.1, bytes: [32, 72, 111, 119], top_logprobs: [{ token: '<|end|>', logprob: -10.9, bytes: null }] },
    ];
    expect(toChatLogprobs(fromChatLogprobs(wire), 1)).toStrictEqual(wire);
  });
});

describe('text_offset counts characters', () => {
  test('an emoji is one character, not two UTF-16 units', async () => {
    const { textOffsets, characterCount } = await import('../../../../src/model/logprobs.js');
    expect(characterCount('a😀b')).toBe(3);
    expect(textOffsets(['😀', ' hi', 'é'], 2)).toEqual([2, 3, 6]);
  });
});
