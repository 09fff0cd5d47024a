/**
 * The server's validator is lazy: a dialect's validators load on its first request, so a
 * dialect nobody calls costs no memory (some 20 MB of idle RSS for all five).
 */
import { validation } from './load-validation.js';

const { createRequestValidator } = validation;

test('nothing is loaded until prepared; prepare loads once; validate before it is a programming error', async () => {
  const lazy = await createRequestValidator({ lazy: true });
  expect(() => lazy.validate('messages', {})).toThrow(/not loaded: await prepare/);
  const first = lazy.prepare('messages');
  expect(first).toBeInstanceOf(Promise);
  // Two first requests at once share one load.
  expect(lazy.prepare('messages')).toBe(first);
  await first;
  expect(lazy.prepare('messages')).toBeUndefined();
  expect(lazy.validate('messages', { model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'Hi' }] })).toEqual([]);
  // Another document is still not loaded.
  expect(lazy.prepare('gemini')).toBeInstanceOf(Promise);
});

test('the eager validator (the commands and the public API) has every document ready', async () => {
  const eager = await createRequestValidator();
  for (const document of ['chat', 'text', 'responses', 'messages', 'gemini'] as const) expect(eager.prepare(document)).toBeUndefined();
});
