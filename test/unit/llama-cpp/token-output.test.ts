import { StopMatcher } from '../../../adapters/llama-cpp/stop-matcher.js';
import { TokenOutput, type ReleasedChunk } from '../../../adapters/llama-cpp/token-output.js';
import { Utf8StreamDecoder } from '../../../adapters/llama-cpp/utf8-decoder.js';

const encoder = new TextEncoder();

/** Token id i is the i-th piece's bytes. */
function outputOf(pieces: (string | number[])[], stops: string[] = [], trim = false) {
  const bytes = pieces.map((piece) => (typeof piece === 'string' ? encoder.encode(piece) : Uint8Array.from(piece)));
  const output = new TokenOutput(stops, (id) => bytes[id], trim);
  const chunks: ReleasedChunk[] = [];
  let stopped = false;
  for (let id = 0; id < pieces.length && !stopped; id++) {
    const result = output.push({ id });
    if (result.released) chunks.push(result.released);
    stopped = result.stopped;
  }
  const rest = output.flush();
  if (rest) chunks.push(rest);
  return {
    chunks,
    stopped,
    text: chunks.map((chunk) => chunk.text).join(''),
    ids: chunks.flatMap((chunk) => chunk.tokens.map((token) => token.id)),
  };
}

describe('StopMatcher', () => {
  it('finds the earliest stop and the longest suffix that could start one', () => {
    const matcher = new StopMatcher(['END', 'stop here']);
    expect(matcher.find('a stop here END')).toBe(2);
    expect(matcher.find('nothing')).toBe(-1);
    expect(matcher.heldSuffix('text EN')).toBe(2);
    expect(matcher.heldSuffix('text stop h')).toBe(6);
    expect(matcher.heldSuffix('text')).toBe(0);
  });
});

describe('Utf8StreamDecoder', () => {
  it('holds the bytes of an unfinished character until it completes', () => {
    const decoder = new Utf8StreamDecoder();
    const snowman = encoder.encode('☃'); // e2 98 83
    expect(decoder.decode(snowman.subarray(0, 1))).toBe('');
    expect(decoder.pending).toBe(true);
    expect(decoder.decode(snowman.subarray(1, 2))).toBe('');
    expect(decoder.decode(Uint8Array.of(snowman[2], 0x41))).toBe('☃A');
    expect(decoder.pending).toBe(false);
  });

  it('turns an unfinished character at the end into U+FFFD, and invalid bytes at once', () => {
    const decoder = new Utf8StreamDecoder();
    expect(decoder.decode(Uint8Array.of(0xa3))).toBe('\ufffd');
    expect(decoder.decode(Uint8Array.of(0xe2, 0x98))).toBe('');
    expect(decoder.flush()).toBe('\ufffd');
  });
});

describe('TokenOutput', () => {
  it('cuts at a stop sequence spread over tokens and leaves it out', () => {
    const out = outputOf(['Hello', ' wo', 'rld', '. More'], ['world.']);
    expect(out.stopped).toBe(true);
    expect(out.text).toBe('Hello ');
    // tokens that contributed text before the stop are released; those wholly inside it are not
    expect(out.ids).toEqual([0, 1]);
  });

  it('releases held text when the stop sequence does not complete', () => {
    const out = outputOf(['Hello', ' wo', 'rk'], ['world']);
    expect(out.stopped).toBe(false);
    expect(out.text).toBe('Hello work');
    expect(out.chunks.map((chunk) => chunk.text)).toEqual(['Hello', ' work']);
  });

  it('never splits a multibyte character: a chunk is exactly the text of its tokens', () => {
    const snowman = Array.from(encoder.encode('☃'));
    const out = outputOf(['a', [snowman[0]], [snowman[1]], [snowman[2]], 'b']);
    expect(out.chunks.map((chunk) => [chunk.text, chunk.tokens.map((token) => token.id)])).toEqual([
      ['a', [0]],
      ['☃', [1, 2, 3]],
      ['b', [4]],
    ]);
  });

  it('drops trailing whitespace when asked (grammar padding)', () => {
    const out = outputOf(['{"a": 1}', '\n', '\n', ' '], [], true);
    expect(out.text).toBe('{"a": 1}');
    expect(out.ids).toEqual([0, 1, 2, 3]);
    expect(outputOf(['{', ' ', '}'], [], true).text).toBe('{ }');
  });
});
