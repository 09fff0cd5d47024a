/** BoundedCache: bounded in entries and characters, least recently used out first, no entry over a quarter of the bound. */
import { BoundedCache } from '../../../src/model/bounded-cache.js';

describe('BoundedCache', () => {
  it('drops the least recently used entry when full', () => {
    const cache = new BoundedCache({ entries: 3, chars: 1000 });
    for (const key of ['a', 'b', 'c']) cache.set(key, key.toUpperCase());
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('d', 'D');
    expect(cache.has('b')).toBe(false);
    expect(['a', 'c', 'd'].map((key) => cache.get(key))).toEqual(['A', 'C', 'D']);
    expect(cache.size).toEqual({ entries: 3, chars: 6 });
  });

  it('holds its characters under the bound, keys counted, and replaces an entry in place', () => {
    const cache = new BoundedCache({ entries: 100, chars: 40 });
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 'x'.repeat(8)); // 10 characters each
    expect(cache.size).toEqual({ entries: 4, chars: 40 });
    expect([...Array(10).keys()].filter((i) => cache.has(`k${i}`))).toEqual([6, 7, 8, 9]);
    cache.set('k9', 'y');
    expect(cache.size).toEqual({ entries: 4, chars: 33 });
    expect(cache.get('k9')).toBe('y');
  });

  it('keeps no entry larger than a quarter of the bound, and evicts nothing for it', () => {
    const cache = new BoundedCache({ entries: 10, chars: 40 });
    cache.set('a', 'A');
    cache.set('big', 'x'.repeat(8)); // 11 characters: over 10
    expect(cache.has('big')).toBe(false);
    expect(cache.size).toEqual({ entries: 1, chars: 2 });
  });
});
