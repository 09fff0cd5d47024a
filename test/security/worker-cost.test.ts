/**
 * Attack: make the bundled llama.cpp worker tokenize for seconds. The worker
 * tokenized every text on the thread that runs generation: a 9 MB prompt was
 * refused as too long only after 7.8 s of tokenizing, while another caller's
 * 4-token completion waited 7.5 s; four 4 MB count_tokens took 13.6 s, none of
 * them ever refused as too many. Now a text more bytes long than the context
 * can hold (contextSize x the vocabulary's longest token) is refused before it
 * is tokenized (a prompt: the 400 context_length_exceeded; a count: the
 * estimate, said to be one), and a long text is tokenized on a thread of its
 * own, one at a time, with at most `queueLimit` waiting (past it a 429 with
 * Retry-After), so short prompts are never held up behind it.
 */
import { startBuiltinProxy } from '../helpers/start-proxy.js';
import type { RunningServer } from '../../src/http/server.js';

const CONTEXT_SIZE = 65_536;
/** `unit` repeated to `bytes` (ASCII) bytes. */
const textOf = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
/** Ordinary text: about a microsecond a byte to tokenize (a run of byte tokens alone is quadratic). */
const PROSE = 'All work and no play makes Jack a dull boy. ';
/** Long enough (a few tenths of a second to tokenize) for a queue to form, short enough to fit the context's bytes. */
const LONG_TEXT = PROSE.repeat(16_000);
const NINE_MB = textOf(PROSE, 9_000_000);
const FOUR_MB = textOf(PROSE, 4_000_000);

let proxy: RunningServer;

beforeAll(async () => {
  // A context far past the model's own 2048 tokens, so that a long text in it takes a while to tokenize.
  proxy = await startBuiltinProxy({ contextSize: CONTEXT_SIZE, parallel: 1, queueLimit: 1 });
}, 60_000);
afterAll(async () => {
  await proxy.close();
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
}

const countTokens = (text: string) => post('/v1/messages/count_tokens', { model: 'builtin', messages: [{ role: 'user', content: text }] });

test('a 9 MB prompt is refused before it is tokenized, naming contextSize and its size', async () => {
  const response = await post('/v1/completions', { model: 'builtin', prompt: NINE_MB, max_tokens: 4 });
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(response.status).toBe(400);
  expect(body.error.code).toBe('context_length_exceeded');
  expect(body.error.message).toContain(`contextSize ${CONTEXT_SIZE}`);
  // Its size in bytes, not in tokens: the refusal of the byte bound, made before any tokenizing (a wall-clock
  // bound said the same, and failed on a loaded CI machine: 2.3 s against 2 s).
  expect(body.error.message).toContain('9000000 bytes');
});

test('a count of a text past what the context holds is the estimate, never tokenized', async () => {
  const response = await countTokens(FOUR_MB);
  expect(response.status).toBe(200);
  // The estimate, not the backend's count: the text went nowhere near the tokenizer.
  expect(response.headers.get('x-dialect-token-count')).toBe('estimate');
  expect(((await response.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(CONTEXT_SIZE);
});

test('while long counts and too-long prompts are in flight, another caller gets 4 tokens before the long counts end', async () => {
  // Told by order, not by the clock: each long count tokenizes for a few tenths of a second, one after another.
  let longCountsLeft = 3;
  const longCounts = Array.from({ length: 3 }, () =>
    countTokens(LONG_TEXT).finally(() => {
      longCountsLeft--;
    }),
  );
  const heavy = [
    ...longCounts,
    ...Array.from({ length: 2 }, () => countTokens(FOUR_MB)),
    post('/v1/completions', { model: 'builtin', prompt: NINE_MB, max_tokens: 4 }),
  ];
  // Let them reach the worker first.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const response = await post('/v1/completions', { model: 'builtin', prompt: 'Once upon a time', max_tokens: 4, temperature: 0 });
  const body = (await response.json()) as { usage: { completion_tokens: number } };
  expect(response.status).toBe(200);
  expect(body.usage.completion_tokens).toBe(4);
  // One long count is past the queue limit (a 429 at once); the other two are still being tokenized, in turn.
  expect(longCountsLeft).toBeGreaterThanOrEqual(1);
  const statuses = await Promise.all(heavy.map(async (pending) => (await pending).status));
  statuses.forEach((status) => expect([200, 400, 429]).toContain(status));
  expect(statuses.slice(0, 3).filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
});

test('count_tokens past the queue limit is a 429 with Retry-After; the others are counted exactly', async () => {
  const shortText = PROSE.repeat(3);
  const short = (await (await countTokens(shortText)).json()) as { input_tokens: number };
  const responses = await Promise.all(Array.from({ length: 6 }, () => countTokens(LONG_TEXT)));
  const refused = responses.filter((response) => response.status === 429);
  const counted = responses.filter((response) => response.status === 200);
  expect(refused.length).toBeGreaterThanOrEqual(1);
  expect(counted.length).toBeGreaterThanOrEqual(1);
  for (const response of refused) {
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
  }
  for (const response of counted) {
    expect(response.headers.get('x-dialect-token-count')).toBe('backend');
    // By the tokenizer thread, as in place: the built-in vocabulary has no merges, one token a character.
    const { input_tokens: tokens } = (await response.json()) as { input_tokens: number };
    expect(tokens - short.input_tokens).toBe(LONG_TEXT.length - shortText.length);
  }
});
