import { createRandom, sampleToken } from '../../../adapters/llama-cpp/sampler.js';

const distribution = new Map([
  [7, 0.5],
  [3, 0.3],
  [9, 0.15],
  [1, 0.05],
  [4, 0],
]);

function histogram(params: Parameters<typeof sampleToken>[1], seed = 1, draws = 4000): Map<number, number> {
  const random = createRandom(seed);
  const counts = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const token = sampleToken(distribution, params, random);
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return counts;
}

describe('sampleToken', () => {
  it('is greedy at temperature 0', () => {
    expect(sampleToken(distribution, { temperature: 0 }, createRandom(1))).toBe(7);
  });

  it('repeats exactly with the same seed', () => {
    const draw = (seed: number) => {
      const random = createRandom(seed);
      return Array.from({ length: 50 }, () => sampleToken(distribution, { temperature: 1 }, random));
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('follows the distribution at temperature 1 and never picks a zero-probability token', () => {
    const counts = histogram({ temperature: 1 });
    expect((counts.get(7) ?? 0) / 4000).toBeCloseTo(0.5, 1);
    expect((counts.get(3) ?? 0) / 4000).toBeCloseTo(0.3, 1);
    expect(counts.has(4)).toBe(false);
  });

  it('truncates with top_k, top_p, min_p and typical_p', () => {
    expect([...histogram({ temperature: 1, topK: 2 }).keys()].sort()).toEqual([3, 7]);
    expect([...histogram({ temperature: 1, topP: 0.7 }).keys()].sort()).toEqual([3, 7]);
    expect([...histogram({ temperature: 1, minP: 0.5 }).keys()].sort()).toEqual([3, 7]);
    // entropy ~1.14 nats: the tokens whose surprisal is closest to it are 3 (1.20) then 7 (0.69)
    expect([...histogram({ temperature: 1, typicalP: 0.5 }).keys()].sort()).toEqual([3, 7]);
  });

  it('sharpens with a low temperature', () => {
    const counts = histogram({ temperature: 0.2 });
    expect((counts.get(7) ?? 0) / 4000).toBeGreaterThan(0.9);
  });
});
