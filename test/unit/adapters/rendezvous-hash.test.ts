/** adapters/rendezvous-hash.ts: weights the same in every process, an even spread, and only a leaving replica's keys move. */
import { execFileSync } from 'node:child_process';
import { rankReplicas, rendezvousWeight } from '../../../adapters/rendezvous-hash.js';

const replicas = ['http://10.0.0.1:8000/v1', 'http://10.0.0.2:8000/v1', 'http://10.0.0.3:8000/v1'];
const keys = Array.from({ length: 3000 }, (_, i) => `session-${i}`);
const owner = (key: string, among: readonly string[]) => rankReplicas(key, among)[0];

describe('rendezvous hashing', () => {
  it('gives fixed weights: SHA-256, not a per-process seeded hash', () => {
    // Pinned: a change of the hash would move every session of every deployment.
    expect(rendezvousWeight('http://10.0.0.1:8000/v1', 'session-1')).toBe(50086737304283);
    const script = `const { createHash } = require('node:crypto'); process.stdout.write(String(createHash('sha256').update('a').update('\\0').update('b').digest().readUIntBE(0, 6)));`;
    const inAnotherProcess = Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    expect(rendezvousWeight('a', 'b')).toBe(inAnotherProcess);
  });

  it('ranks every replica once, the same way every time', () => {
    const ranked = rankReplicas('k', replicas);
    expect([...ranked].sort()).toEqual([...replicas].sort());
    expect(rankReplicas('k', [...replicas].reverse())).toEqual(ranked);
  });

  it('spreads keys within 10 % of even over three replicas', () => {
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(owner(key, replicas), (counts.get(owner(key, replicas)) ?? 0) + 1);
    for (const replica of replicas) expect(Math.abs((counts.get(replica) ?? 0) - 1000)).toBeLessThan(100);
  });

  it('moves only the keys of a replica that leaves, to the others evenly, and back when it returns', () => {
    const [, leaving] = replicas;
    const rest = replicas.filter((replica) => replica !== leaving);
    let moved = 0;
    const movedTo = new Map<string, number>();
    for (const key of keys) {
      const before = owner(key, replicas);
      const after = owner(key, rest);
      if (before !== leaving) expect(after).toBe(before);
      else {
        moved += 1;
        movedTo.set(after, (movedTo.get(after) ?? 0) + 1);
        expect(after).toBe(rankReplicas(key, replicas)[1]);
      }
    }
    expect(moved).toBeGreaterThan(800);
    for (const replica of rest) expect(movedTo.get(replica) ?? 0).toBeGreaterThan(moved * 0.35);
  });
});
