/** The CLI's heap growth policy (src/http/heap-growth.ts): set unless the operator started node with the flag, either way it may be spelled. */
import { limitHeapGrowth } from '../../../src/http/heap-growth.js';

test('left alone when node was started with its own heap growth', () => {
  expect(limitHeapGrowth(['--heap-growing-percent=50'])).toBe(false);
  expect(limitHeapGrowth(['--max-old-space-size=4096', '--heap_growing_percent=300'])).toBe(false);
});

test('set otherwise (other flags do not count)', () => {
  expect(limitHeapGrowth(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(true);
});
