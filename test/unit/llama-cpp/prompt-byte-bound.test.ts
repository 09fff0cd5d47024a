/** The bytes-per-token bound that refuses a prompt too long for the context before it is tokenized. */
import { gpt2ByteDecoder } from '../../../adapters/llama-cpp/token-bytes.js';
import { measurePromptByteBound, promptTooLong } from '../../../adapters/llama-cpp/prompt-byte-bound.js';

const never = () => false;

describe('measurePromptByteBound', () => {
  it('SentencePiece: the longest piece in UTF-8 ("▁" is 3 bytes), a byte token one byte whatever its name', () => {
    const vocab = { model: 'llama', tokens: ['<unk>', '<s>', '<0x41>', '▁▁', 'ab'], tokenTypes: [2, 3, 6, 1, 1] };
    expect(measurePromptByteBound(vocab, never)).toEqual({ maxTokenBytes: 6, whitespaceMayVanish: false });
  });

  it('a special token that strips whitespace beside it: whitespace may vanish, and one byte more a token', () => {
    const vocab = { model: 'llama', tokens: ['<unk>', '<|end|>', '▁x'], tokenTypes: [2, 3, 1] };
    const asked: number[] = [];
    const bound = measurePromptByteBound(vocab, (token) => {
      asked.push(token);
      return token === 1;
    });
    expect(bound).toEqual({ maxTokenBytes: 8, whitespaceMayVanish: true });
    // Only special tokens are matched with their attributes.
    expect(asked).toEqual([0, 1]);
  });

  it('byte-level BPE: a bound only when every byte has its piece (else llama.cpp drops the bytes it cannot spell)', () => {
    const bytes = [...gpt2ByteDecoder().keys()];
    expect(measurePromptByteBound({ model: 'gpt2', tokens: [...bytes, 'Ġhello'] }, never)).toEqual({
      maxTokenBytes: 7,
      whitespaceMayVanish: false,
    });
    expect(measurePromptByteBound({ model: 'gpt2', tokens: [...bytes.slice(1), 'Ġhello'] }, never)).toBeUndefined();
  });

  it('tokenizers that normalize text (Unigram, WordPiece) get none', () => {
    expect(measurePromptByteBound({ model: 't5', tokens: ['▁a'] }, never)).toBeUndefined();
    expect(measurePromptByteBound({ model: 'bert', tokens: ['a'] }, never)).toBeUndefined();
  });
});

describe('promptTooLong', () => {
  const bound = { maxTokenBytes: 4, whitespaceMayVanish: false };

  it('a text that may fit passes; one byte more is the 400 naming contextSize and the bytes', () => {
    expect(promptTooLong('x'.repeat(40), 10, bound)).toBeUndefined();
    expect(promptTooLong('x'.repeat(41), 10, bound)).toEqual({
      status: 400,
      code: 'context_length_exceeded',
      param: 'prompt',
      message: "The prompt is 41 bytes, more than the model's context holds: contextSize 10 tokens of at most 4 bytes each (40 bytes).",
    });
  });

  it('counts UTF-8 bytes: a surrogate pair is 4, a lone surrogate 3 (U+FFFD)', () => {
    expect(promptTooLong('😀'.repeat(10), 10, bound)).toBeUndefined();
    expect(promptTooLong(`${'😀'.repeat(10)}x`, 10, bound)?.message).toContain('41 bytes');
    expect(promptTooLong('\ud800'.repeat(14), 10, bound)?.message).toContain('42 bytes');
  });

  it('where whitespace may vanish, only the other bytes count', () => {
    const stripping = { maxTokenBytes: 4, whitespaceMayVanish: true };
    expect(promptTooLong(`${'x'.repeat(40)}${' \t\n\r'.repeat(1000)}`, 10, stripping)).toBeUndefined();
    expect(promptTooLong(`${'é'.repeat(20)}x${' '.repeat(100)}`, 10, stripping)?.message).toContain('41 bytes besides whitespace');
    expect(promptTooLong('\ud800'.repeat(14), 10, stripping)?.message).toContain('42 bytes besides whitespace');
    expect(promptTooLong(`${'😀'.repeat(10)}x`, 10, stripping)?.message).toContain('41 bytes besides whitespace');
  });

  it('no bound, no refusal', () => {
    expect(promptTooLong('x'.repeat(1_000_000), 10, undefined)).toBeUndefined();
  });
});
