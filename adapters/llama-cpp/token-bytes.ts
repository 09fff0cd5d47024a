/**
 * The raw UTF-8 bytes of every vocabulary token, read from the GGUF vocabulary.
 * node-llama-cpp only detokenises to JS strings, which turns a token that holds
 * half of a multibyte character into U+FFFD; streaming and logprob `bytes` need
 * the exact bytes, so we rebuild llama.cpp's `token_to_piece` from the metadata.
 */

/** GGUF `tokenizer.ggml.token_type` values (llama.cpp `llama_token_type`). */
export const TokenType = { Normal: 1, Unknown: 2, Control: 3, UserDefined: 4, Unused: 5, Byte: 6 } as const;

export interface VocabularyInfo {
  /** `tokenizer.ggml.model`: "llama" (SentencePiece) or "gpt2" (byte-level BPE); others use the fallback. */
  model: string;
  tokens: readonly string[];
  tokenTypes?: readonly number[];
}

const encoder = new TextEncoder();
const empty = new Uint8Array(0);
/** llama.cpp renders an SPM unknown token as U+2585. */
const unknownPiece = encoder.encode('\u2585');

/**
 * Builds a token id -> bytes table. `fallback` is used for tokenizer models this
 * function does not know (it may lose partial characters).
 * @example buildTokenBytes({ model: 'llama', tokens: ['<unk>', '<s>', '</s>', '<0x0A>', '▁hi'], tokenTypes: [2, 3, 3, 6, 1] })[4] // " hi"
 */
export function buildTokenBytes(vocab: VocabularyInfo, fallback: (token: number) => Uint8Array): Uint8Array[] {
  const byteDecoder = vocab.model === 'gpt2' ? gpt2ByteDecoder() : undefined;
  return vocab.tokens.map((piece, id) => {
    const type = vocab.tokenTypes?.[id] ?? TokenType.Normal;
    if (type === TokenType.Control || type === TokenType.Unused) return empty;
    if (vocab.model === 'llama') return spmPieceBytes(piece, type);
    if (byteDecoder) return type === TokenType.UserDefined ? encoder.encode(piece) : bpePieceBytes(piece, byteDecoder);
    return fallback(id);
  });
}

function spmPieceBytes(piece: string, type: number): Uint8Array {
  if (type === TokenType.Byte) {
    const match = /^<0x([0-9A-Fa-f]{2})>$/.exec(piece);
    if (match) return Uint8Array.of(parseInt(match[1], 16));
  }
  if (type === TokenType.Unknown) return unknownPiece;
  return encoder.encode(piece.replaceAll('\u2581', ' '));
}

function bpePieceBytes(piece: string, byteDecoder: Map<string, number>): Uint8Array {
  const bytes: number[] = [];
  for (const char of piece) {
    const byte = byteDecoder.get(char);
    if (byte === undefined) bytes.push(...encoder.encode(char));
    else bytes.push(byte);
  }
  return Uint8Array.from(bytes);
}

/** The inverse of GPT-2's `bytes_to_unicode` table: each of the 256 bytes' one-character piece -> the byte. */
export function gpt2ByteDecoder(): Map<string, number> {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const decoder = new Map<string, number>();
  for (const b of printable) decoder.set(String.fromCodePoint(b), b);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    if (printable.includes(b)) continue;
    decoder.set(String.fromCodePoint(256 + extra), b);
    extra++;
  }
  return decoder;
}
