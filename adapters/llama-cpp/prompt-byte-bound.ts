/**
 * Whether a text can fit the context, from its bytes alone: a prompt far longer
 * than the context is refused before it is tokenized (tokenizing costs about a
 * microsecond a byte on a small CPU, and llama.cpp's SentencePiece tokenizer is
 * quadratic in a run of byte tokens: six seconds for 300 kB of them).
 *
 * Why no prompt that fits is refused, for the two tokenizers llama.cpp runs
 * without normalizing the text ("llama": SentencePiece, "gpt2": byte-level BPE):
 * every byte of the text goes into exactly one token, and no token takes more
 * bytes of text than its piece has in UTF-8 (a byte token takes one;
 * SentencePiece's 3-byte "▁" stands for a 1-byte space, each character of a BPE
 * piece for one byte; a special token matches its own text). So a text of B bytes
 * has at least B / (the longest piece) tokens. The exception: a special token
 * marked lstrip or rstrip (Phi-3's) drops the whitespace beside it, so there only
 * the other bytes count. A byte-level vocabulary missing one of the 256 byte
 * pieces drops the bytes it cannot spell, and the Unigram and WordPiece
 * tokenizers normalize text (T5's collapses spaces): those get no bound.
 */
import { gpt2ByteDecoder, TokenType, type VocabularyInfo } from './token-bytes.js';
import type { LlamaErrorData, PromptByteBound } from './types.js';

/**
 * The vocabulary's bound, or undefined where its tokenizer gives none. `stripsWhitespace`
 * says whether a special token has llama.cpp's lstrip or rstrip attribute.
 * @example measurePromptByteBound({ model: 'llama', tokens: ['<unk>', '<0x41>', '▁the'], tokenTypes: [2, 6, 1] }, () => false) // { maxTokenBytes: 6, whitespaceMayVanish: false }
 */
export function measurePromptByteBound(vocab: VocabularyInfo, stripsWhitespace: (token: number) => boolean): PromptByteBound | undefined {
  if (vocab.model !== 'llama' && vocab.model !== 'gpt2') return undefined;
  if (vocab.model === 'gpt2') {
    const pieces = new Set(vocab.tokens.filter((piece) => piece.length === 1));
    if (![...gpt2ByteDecoder().keys()].every((piece) => pieces.has(piece))) return undefined;
  }
  let maxTokenBytes = 1;
  let whitespaceMayVanish = false;
  vocab.tokens.forEach((piece, token) => {
    const type = vocab.tokenTypes?.[token] ?? TokenType.Normal;
    if (type !== TokenType.Byte) maxTokenBytes = Math.max(maxTokenBytes, Buffer.byteLength(piece));
    // Only special tokens (llama.cpp matches these in the text) carry the attributes.
    const special = type === TokenType.Control || type === TokenType.UserDefined || type === TokenType.Unknown;
    if (special && !whitespaceMayVanish) whitespaceMayVanish = stripsWhitespace(token);
  });
  // Under a Latin-1 C locale, isspace() also takes the byte 0x85 or 0xA0 ending a character before the token.
  return { maxTokenBytes: whitespaceMayVanish ? maxTokenBytes + 1 : maxTokenBytes, whitespaceMayVanish };
}

/**
 * The 400 context_length_exceeded for a text longer in bytes than `contextSize` tokens can hold;
 * undefined when it may fit (or the tokenizer gives no bound). Reads the text at most once.
 * @example promptTooLong('x'.repeat(30_000), 2048, { maxTokenBytes: 12, whitespaceMayVanish: false })?.code // 'context_length_exceeded'
 */
export function promptTooLong(text: string, contextSize: number, bound: PromptByteBound | undefined): LlamaErrorData | undefined {
  if (!bound) return undefined;
  const limit = bound.maxTokenBytes * contextSize;
  // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 4).
  if (text.length * 3 <= limit) return undefined;
  let bytes = Buffer.byteLength(text);
  if (bytes <= limit) return undefined;
  if (bound.whitespaceMayVanish) {
    bytes = bytesBesidesWhitespace(text);
    if (bytes <= limit) return undefined;
  }
  const counted = bound.whitespaceMayVanish ? `${bytes} bytes besides whitespace` : `${bytes} bytes`;
  return {
    status: 400,
    code: 'context_length_exceeded',
    param: 'prompt',
    message: `The prompt is ${counted}, more than the model's context holds: contextSize ${contextSize} tokens of at most ${bound.maxTokenBytes} bytes each (${limit} bytes).`,
  };
}

/** UTF-8 bytes but those of C's isspace() (tab, newline, vertical tab, form feed, carriage return, space). */
function bytesBesidesWhitespace(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += unit === 0x20 || (unit >= 0x09 && unit <= 0x0d) ? 0 : 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate reaches llama.cpp as U+FFFD
  }
  return bytes;
}
