/**
 * What the proxy gives a caller to hand back unchanged, sealed: a Responses reasoning item's
 * `encrypted_content` (the reasoning and the backend's signature, for a stateless next turn), a
 * compaction item's summary. AES-256-GCM: the caller can neither read nor alter it, and what comes
 * back altered, or sealed under another key, or for another purpose, is refused by name, never trusted.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { invalidRequest } from '../errors/proxy-error.js';

/** What marks the proxy's own sealed values (another's, OpenAI's `gAAAA...`, are foreign). */
const PREFIX = 'dpx1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed value is for: one purpose's value is never read as another's. */
export type SealPurpose = 'reasoning' | 'compaction' | 'thought-signature';

export class Sealer {
  private constructor(private readonly key: Buffer) {}

  /** A sealer whose key is derived from `secret` (any length; every process that must read the values shares it). */
  static fromSecret(secret: string): Sealer {
    return new Sealer(Buffer.from(hkdfSync('sha256', secret, 'dialect-proxy sealed content', 'v1', 32)));
  }

  /** A sealer with a key of its own: what it seals no other process reads. */
  static random(): Sealer {
    return new Sealer(randomBytes(32));
  }

  seal(purpose: SealPurpose, payload: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(purpose));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
  }

  /** The payload sealed for `purpose`; a 400 naming `param` for anything else. */
  open(purpose: SealPurpose, value: unknown, param: string): unknown {
    if (typeof value !== 'string' || !value.startsWith(PREFIX))
      throw invalidRequest(
        param,
        `${param} was not made by this proxy, which cannot read it: leave the item out, or send its text instead.`,
      );
    const bytes = Buffer.from(value.slice(PREFIX.length), 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8'));
    } catch {
      throw invalidRequest(
        param,
        `${param} does not open: it was altered, or sealed for another purpose or under another key (every replica needs the same responses.encryptionKey).`,
      );
    }
  }
}
