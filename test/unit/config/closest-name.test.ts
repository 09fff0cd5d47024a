/** "Did you mean": a typo finds the name meant; a word far from every name finds none. */
import { closestName } from '../../../src/config/closest-name.js';

const OPTIONS = ['config', 'port', 'host', 'workers', 'help'];

test.each([
  ['prot', 'port'], // two letters swapped
  ['confg', 'config'], // one left out
  ['hots', 'host'],
  ['worker', 'workers'],
  ['PORT', 'port'], // case does not matter
])('%s -> %s', (typed, meant) => {
  expect(closestName(typed, OPTIONS)).toBe(meant);
});

test('nothing near: no guess', () => {
  expect(closestName('verbose', OPTIONS)).toBeUndefined();
  expect(closestName('x', ['config'])).toBeUndefined();
});

test('commands and fields too', () => {
  expect(closestName('tranlsate', ['translate', 'audit', 'fields'])).toBe('translate');
  expect(closestName('top_kk', ['top_p', 'top_k', 'min_p'])).toBe('top_k');
});
