/**
 * Streaming UTF-8 decoding that never emits a broken character: the bytes of an
 * incomplete trailing sequence are held until the next token completes them.
 */
const decoder = new TextDecoder('utf-8');

export class Utf8StreamDecoder {
  private carry: number[] = [];

  /** True while the last bytes are the start of a character still to be completed. */
  get pending(): boolean {
    return this.carry.length > 0;
  }

  /** Decodes `bytes` after any held bytes; returns only complete characters. */
  decode(bytes: Uint8Array): string {
    if (this.carry.length === 0 && incompleteTailStart(bytes) === bytes.length) return decoder.decode(bytes);
    const all = this.carry.length > 0 ? Uint8Array.from([...this.carry, ...bytes]) : bytes;
    const cut = incompleteTailStart(all);
    this.carry = Array.from(all.subarray(cut));
    return decoder.decode(all.subarray(0, cut));
  }

  /** Ends the stream: held bytes of an unfinished character decode as U+FFFD. */
  flush(): string {
    const rest = decoder.decode(Uint8Array.from(this.carry));
    this.carry = [];
    return rest;
  }
}

/** Index where a trailing, still-completable multibyte sequence starts (or `bytes.length`). */
function incompleteTailStart(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let i = end - 1; i >= Math.max(0, end - 4); i--) {
    const byte = bytes[i];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return end - i < needed ? i : end;
  }
  return end;
}
