/** Vercel AI SDK's `@ai-sdk/fireworks` provider against the running proxy. */
import { createFireworks } from '@ai-sdk/fireworks';
import { generateText, streamText } from 'ai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const completionJson = {
  id: 'cmpl-1',
  object: 'text_completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, text: ' a fox ran.', logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 },
};
const chunk = (text: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'cmpl-2', object: 'text_completion', created, model: 'up-model', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;
const completionSse = [
  chunk(' a'),
  chunk(' fox'),
  chunk('', 'stop'),
  `data: ${JSON.stringify({ id: 'cmpl-2', object: 'text_completion', created, model: 'up-model', choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } })}\n\n`,
  'data: [DONE]\n\n',
].join('');

describe('@ai-sdk/fireworks -> dialect-proxy', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let fireworks: ReturnType<typeof createFireworks>;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
    fireworks = createFireworks({ baseURL: `${proxy.url}/v1`, apiKey: 'caller-key' });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('generateText with a completion model', async () => {
    upstream.reply({ json: completionJson });
    const result = await generateText({
      model: fireworks.completionModel('accounts/fireworks/models/x'),
      prompt: 'Once upon a time',
      maxOutputTokens: 8,
    });
    expect(result.text).toBe(' a fox ran.');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(4);
    expect(upstream.requests[0].path).toBe('/v1/completions');
  });

  test('streamText with a completion model', async () => {
    upstream.reply({ sse: completionSse });
    const result = streamText({ model: fireworks.completionModel('accounts/fireworks/models/x'), prompt: 'Once upon a time' });
    let text = '';
    for await (const part of result.textStream) text += part;
    expect(text).toBe(' a fox');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(2);
  });

  test('generateText with a chat model on a completions-only backend goes through the chat template', async () => {
    upstream.reply({ json: completionJson });
    const result = await generateText({
      model: fireworks.chatModel('accounts/fireworks/models/x'),
      system: 'Be brief.',
      prompt: 'Tell me a story.',
    });
    expect(result.text).toBe(' a fox ran.');
    expect(upstream.requests[0].path).toBe('/v1/completions');
    expect((upstream.requests[0].body as { prompt: string }).prompt).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nTell me a story.<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  test('streamText with a chat model on a completions-only backend', async () => {
    upstream.reply({ sse: completionSse });
    const result = streamText({ model: fireworks.chatModel('accounts/fireworks/models/x'), prompt: 'Tell me a story.' });
    let text = '';
    for await (const part of result.textStream) text += part;
    expect(text).toBe(' a fox');
    expect(await result.finishReason).toBe('stop');
  });
});
