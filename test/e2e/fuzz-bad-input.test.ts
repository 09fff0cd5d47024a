/** Arbitrary bodies never crash the proxy: every answer is a 2xx or a 4xx in the caller's dialect, never a 5xx. */
import fc from 'fast-check';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const chatAnswer = {
  id: 'chatcmpl-f',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

describe('fuzzed request bodies', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream({ json: chatAnswer });
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  /** Bodies near the real shapes (so parsing goes deep), and arbitrary JSON. */
  const field = fc.constantFrom(
    'model',
    'messages',
    'prompt',
    'n',
    'stop',
    'logprobs',
    'top_logprobs',
    'stream',
    'stream_options',
    'tools',
    'tool_choice',
    'response_format',
    'reasoning_effort',
    'thinking',
    'max_tokens',
    'max_completion_tokens',
    'echo',
    'images',
    'functions',
    'prediction',
    'logit_bias',
  );
  const nearBody = fc.dictionary(field, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }).map((body) => ({ model: 'gpt-x', ...body }));
  const body = fc.oneof(nearBody, fc.jsonValue({ maxDepth: 3 }));

  test.each(['/v1/chat/completions', '/v1/completions'])(
    '%s',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const response = await fetch(proxy.url + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(value),
          });
          const text = await response.text();
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) {
            const parsed = JSON.parse(text) as { error: { message: unknown; type: unknown } };
            expect(typeof parsed.error.message).toBe('string');
            expect(typeof parsed.error.type).toBe('string');
          }
        }),
        { numRuns: 150 },
      );
    },
    60_000,
  );
});
