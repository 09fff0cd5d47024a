/**
 * Sampling in JavaScript from a full next-token distribution. Used when the
 * caller wants logprobs (we need the untruncated distribution, and llama.cpp
 * hands back only the distribution after its own sampler chain) or typical_p
 * (node-llama-cpp has no typical sampler). Order follows llama.cpp's common
 * chain: top-k, typical, top-p, min-p, temperature.
 */

export interface SamplingParams {
  /** 0 = greedy. */
  temperature: number;
  topK?: number;
  topP?: number;
  minP?: number;
  typicalP?: number;
}

/** A small, fast, seedable PRNG (mulberry32) returning floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Candidate {
  token: number;
  p: number;
}

/**
 * Draws a token from `probabilities` (token -> probability, sorted most likely
 * first, as node-llama-cpp returns them; not re-sorted here, vocabularies are large).
 */
export function sampleToken(probabilities: ReadonlyMap<number, number>, params: SamplingParams, random: () => number): number {
  let candidates: Candidate[] = [];
  for (const [token, p] of probabilities) if (p > 0) candidates.push({ token, p });
  if (candidates.length === 0) throw new Error('No token has a non-zero probability');
  if (params.temperature <= 0) return candidates[0].token;
  if (params.topK !== undefined && params.topK > 0) candidates = candidates.slice(0, params.topK);
  if (params.typicalP !== undefined && params.typicalP < 1) candidates = typical(candidates, params.typicalP);
  if (params.topP !== undefined && params.topP < 1) candidates = nucleus(candidates, params.topP);
  if (params.minP !== undefined && params.minP > 0) {
    const floor = candidates[0].p * params.minP;
    candidates = candidates.filter((candidate, i) => i === 0 || candidate.p >= floor);
  }
  // p^(1/T) is exp(logit / T) up to a constant.
  const top = Math.log(candidates[0].p);
  const weights = candidates.map((candidate) => Math.exp((Math.log(candidate.p) - top) / params.temperature));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let target = random() * total;
  for (let i = 0; i < candidates.length; i++) {
    target -= weights[i];
    if (target < 0) return candidates[i].token;
  }
  return candidates[candidates.length - 1].token;
}

function normalized(candidates: Candidate[]): number[] {
  const total = candidates.reduce((sum, candidate) => sum + candidate.p, 0);
  return candidates.map((candidate) => candidate.p / total);
}

function nucleus(candidates: Candidate[], topP: number): Candidate[] {
  const ps = normalized(candidates);
  let cumulative = 0;
  for (let i = 0; i < ps.length; i++) {
    cumulative += ps[i];
    if (cumulative >= topP) return candidates.slice(0, i + 1);
  }
  return candidates;
}

/** Locally typical sampling (Meister et al. 2022), as llama.cpp's `typical` sampler. */
function typical(candidates: Candidate[], typicalP: number): Candidate[] {
  const ps = normalized(candidates);
  const entropy = -ps.reduce((sum, p) => sum + p * Math.log(p), 0);
  const order = ps.map((p, i) => ({ i, shift: Math.abs(-Math.log(p) - entropy) })).sort((a, b) => a.shift - b.shift);
  const kept: number[] = [];
  let cumulative = 0;
  for (const { i } of order) {
    kept.push(i);
    cumulative += ps[i];
    if (cumulative >= typicalP) break;
  }
  return kept.sort((a, b) => a - b).map((i) => candidates[i]);
}
