/**
 * A token with its logprob and the most likely alternatives, from a next-token
 * distribution (token -> probability, most likely first, as node-llama-cpp gives it).
 */
import type { LlamaModel } from 'node-llama-cpp';
import { asToken } from './token-ids.js';
import type { LlamaAlternative, LlamaPromptLogprob, LlamaTokenLogprob } from './types.js';

export interface TokenDescriber {
  model: LlamaModel;
  tokenBytes: readonly Uint8Array[];
  /** Alternatives to list. */
  top: number;
}

/** vLLM's floor for impossible tokens; -Infinity has no JSON form. */
const floor = -9999;
const decoder = new TextDecoder('utf-8');

export function describeToken(describer: TokenDescriber, token: number, distribution: ReadonlyMap<number, number>): LlamaTokenLogprob {
  const top: LlamaAlternative[] = [];
  for (const [candidate, p] of distribution) {
    if (top.length >= describer.top || p <= 0) break;
    top.push(alternative(describer, candidate, p));
  }
  return { ...alternative(describer, token, distribution.get(token) ?? 0), top };
}

/** A prompt token nothing scored (no context before it). */
export function describeUnscored(describer: TokenDescriber, token: number): LlamaPromptLogprob {
  return { ...alternative(describer, token, 1), logprob: null, top: [] };
}

function alternative({ model, tokenBytes }: TokenDescriber, tokenId: number, p: number): LlamaAlternative {
  const bytes = tokenBytes[tokenId] ?? new Uint8Array(0);
  // Control tokens have no bytes in the text; name them by their piece (e.g. "</s>").
  const token = bytes.length > 0 ? decoder.decode(bytes) : model.detokenize([asToken(tokenId)], true);
  return { token, tokenId, bytes: Array.from(bytes), logprob: p > 0 ? Math.max(floor, Math.log(p)) : floor };
}
