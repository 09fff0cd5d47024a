import { buildTokenBytes } from '../../../adapters/llama-cpp/token-bytes.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const none = () => new Uint8Array(0);

describe('buildTokenBytes', () => {
  it('SentencePiece: ▁ is a space, <0xNN> a raw byte, control tokens have no text', () => {
    const table = buildTokenBytes({ model: 'llama', tokens: ['<unk>', '<s>', '▁Once', '<0xE2>', 'é'], tokenTypes: [2, 3, 1, 6, 1] }, none);
    expect(text(table[0])).toBe('\u2585');
    expect(table[1]).toHaveLength(0);
    expect(text(table[2])).toBe(' Once');
    expect(Array.from(table[3])).toEqual([0xe2]);
    expect(Array.from(table[4])).toEqual([0xc3, 0xa9]);
  });

  it('GPT-2 byte-level BPE: the printable-byte alphabet maps back to bytes', () => {
    // "Ġ" is the space, "Ċ" the newline, "âĺĥ" the three bytes of "☃"
    const table = buildTokenBytes(
      { model: 'gpt2', tokens: ['Ġhello', 'Ċ', 'âĺĥ', '<|im_end|>', '<think>'], tokenTypes: [1, 1, 1, 3, 4] },
      none,
    );
    expect(text(table[0])).toBe(' hello');
    expect(text(table[1])).toBe('\n');
    expect(text(table[2])).toBe('☃');
    expect(table[3]).toHaveLength(0);
    expect(text(table[4])).toBe('<think>');
  });

  it('uses the fallback for other tokenizers', () => {
    const table = buildTokenBytes({ model: 'rwkv', tokens: ['x'] }, () => Uint8Array.of(120));
    expect(Array.from(table[0])).toEqual([120]);
  });
});
