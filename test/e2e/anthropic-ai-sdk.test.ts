/**
 * The Vercel AI SDK's Anthropic provider (`@ai-sdk/anthropic`, which speaks
 * the Messages API) against the running proxy, over a mock OpenAI chat
 * backend: generateText, streamText, and a two-step tool loop whose tool the
 * SDK runs itself.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const usage = { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26 };
const chatAnswer = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
  usage,
});
const chunk = (delta: object | null, finish: string | null = null, withUsage = false) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'up-model', choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: finish }] : [], ...(withUsage ? { usage } : {}) })}\n\n`;

describe('@ai-sdk/anthropic -> dialect-proxy -> a chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let anthropic: ReturnType<typeof createAnthropic>;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'], apiKey: 'upstream-secret', retries: { attempts: 0 } });
    anthropic = createAnthropic({ baseURL: `${proxy.url}/v1`, apiKey: 'caller-key' });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('generateText: the text, the finish reason and the usage, as the provider reads them', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Bonjour!' }) });
    const result = await generateText({
      model: anthropic('claude-sonnet-4-5'),
      system: 'Answer in French.',
      prompt: 'Hello',
      maxOutputTokens: 64,
    });
    expect(result.text).toBe('Bonjour!');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 6 });
    expect(upstream.requests[0].body).toMatchObject({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
      ],
      max_completion_tokens: 64,
    });
  });

  test('streamText: the text as it arrives', async () => {
    upstream.reply({
      sse: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo!' }),
        chunk({}, 'stop'),
        chunk(null, null, true),
        'data: [DONE]\n\n',
      ],
    });
    const result = streamText({ model: anthropic('claude-sonnet-4-5'), prompt: 'Hi', maxOutputTokens: 32 });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);
    expect(pieces.join('')).toBe('Hello!');
    expect(await result.finishReason).toBe('stop');
  });

  test('a two-step tool loop: the SDK runs the tool, its result goes back upstream as the tool message of the call', async () => {
    const calls: unknown[] = [];
    upstream.reply((request) => {
      const messages = (request.body as { messages: { role: string }[] }).messages;
      return messages.some((message) => message.role === 'tool')
        ? { json: chatAnswer({ content: 'It is sunny in Paris.' }) }
        : {
            json: chatAnswer(
              {
                content: null,
                tool_calls: [{ id: 'call_5', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
              },
              'tool_calls',
            ),
          };
    });
    const result = await generateText({
      model: anthropic('claude-sonnet-4-5'),
      prompt: 'Weather in Paris?',
      maxOutputTokens: 128,
      stopWhen: stepCountIs(2),
      tools: {
        weather: tool({
          description: 'The weather in a city.',
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            calls.push(input);
            return 'sunny';
          },
        }),
      },
    });
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(result.text).toBe('It is sunny in Paris.');
    expect(result.steps).toHaveLength(2);
    const second = upstream.requests[1].body as { messages: Record<string, unknown>[] };
    expect(second.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'toolu_5', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', content: 'sunny', tool_call_id: 'toolu_5' },
    ]);
  });
});
