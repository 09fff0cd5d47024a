/**
 * Thinking blocks carry a signature. An Anthropic backend's passes through
 * untouched; for reasoning from any other backend the proxy signs the block
 * itself, so that when the block comes back it knows the reasoning is its
 * own rendering (plain reasoning history), not Anthropic's, whose backend
 * would refuse a signature it did not make. It marks where the block came
 * from and that its text is unchanged; it is not a secret.
 */
import { createHash, type Hash } from 'node:crypto';

const PREFIX = 'dialect-proxy.1.';

/** A hash to feed a block's thinking into as it streams. */
export function signatureHash(): Hash {
  return createHash('sha256');
}

export function proxySignature(thinking: string | Hash): string {
  const hash = typeof thinking === 'string' ? signatureHash().update(thinking) : thinking;
  return PREFIX + hash.digest('base64url');
}

/** True when the proxy made this signature for exactly this thinking. */
export function isProxySignature(signature: string, thinking: string): boolean {
  return signature.startsWith(PREFIX) && signature === proxySignature(thinking);
}
