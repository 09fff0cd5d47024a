/**
 * The CLI's heap growth policy (src/http/heap-growth.ts): set unless the operator started node with the flag,
 * either way it may be spelled. The flag is recorded, not set: set in a test process, it would slow the whole suite.
 */
import { HEAP_GROWTH_FLAG, limitHeapGrowth } from '../../../src/http/heap-growth.js';

test('left alone when node was started with its own heap growth', () => {
  const set: string[] = [];
  expect(limitHeapGrowth(['--heap-growing-percent=50'], (flag) => set.push(flag))).toBe(false);
  expect(limitHeapGrowth(['--max-old-space-size=4096', '--heap_growing_percent=300'], (flag) => set.push(flag))).toBe(false);
  expect(set).toEqual([]);
});

test('set otherwise (other flags do not count)', () => {
  const set: string[] = [];
  expect(limitHeapGrowth(['--enable-source-maps', '--max-old-space-size=4096'], (flag) => set.push(flag))).toBe(true);
  expect(set).toEqual([HEAP_GROWTH_FLAG]);
});
