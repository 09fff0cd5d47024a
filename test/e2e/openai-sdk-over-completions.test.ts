/**
 * The `openai` SDK's chat calls on a completions-only backend: logprobs come
 * back in chat shape, and tool calls are parsed out of the generated text.
 */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const completion = (text: string, logprobs: unknown = null) => ({
  id: 'cmpl-1',
  object: 'text_completion',
  created,
  model: 'base',
  choices: [{ index: 0, text, logprobs, finish_reason: 'stop' }],
  usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
});
const chunk = (text: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'cmpl-2', object: 'text_completion', created, model: 'base', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;
const toolCallText = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('openai SDK chat on a completions-only backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('logprobs + top_logprobs come back as chat logprobs', async () => {
    upstream.reply({
      json: completion(' Hi there', {
        tokens: [' Hi', ' there'],
        token_logprobs: [-0.5, -0.25],
        top_logprobs: [
          { ' Hi': -0.5, ' Hello': -1.5 },
          { ' there': -0.25, '!': -2 },
        ],
        text_offset: [0, 3],
      }),
    });
    const answer = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Say hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    // Asked upstream in the same (chat/new) shape; Fireworks completions take logprobs: true + top_logprobs.
    expect(upstream.requests[0].body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(answer.choices[0].logprobs?.content).toEqual([
      {
        token: ' Hi',
        logprob: -0.5,
        bytes: [32, 72, 105],
        top_logprobs: [
          { token: ' Hi', logprob: -0.5, bytes: [32, 72, 105] },
          { token: ' Hello', logprob: -1.5, bytes: [32, 72, 101, 108, 108, 111] },
        ],
      },
      {
        token: ' there',
        logprob: -0.25,
        bytes: [32, 116, 104, 101, 114, 101],
        top_logprobs: [
          { token: ' there', logprob: -0.25, bytes: [32, 116, 104, 101, 114, 101] },
          { token: '!', logprob: -2, bytes: [33] },
        ],
      },
    ]);
  });

  test('a tool call in the generated text is returned as message.tool_calls', async () => {
    upstream.reply({ json: completion(toolCallText) });
    const answer = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
    });
    const prompt = (upstream.requests[0].body as { prompt: string }).prompt;
    expect(prompt).toContain('"name": "get_weather"');
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    expect(answer.choices[0].message.tool_calls).toEqual([
      { id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
  });

  test('streamed, the tool call arrives as tool_calls deltas', async () => {
    upstream.reply({
      sse: [
        chunk('<tool_call>\n{"name": "get_'),
        chunk('weather", "arguments": {"city": "Paris"}}\n</tool'),
        chunk('_call>'),
        chunk('', 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weatherTool],
      stream: true,
    });
    const calls: Record<number, { id?: string; name: string; args: string }> = {};
    let finish: string | null = null;
    let content = '';
    for await (const part of stream) {
      const choice = part.choices[0];
      if (!choice) continue;
      content += choice.delta.content ?? '';
      for (const call of choice.delta.tool_calls ?? []) {
        calls[call.index] ??= { name: '', args: '' };
        if (call.id) calls[call.index].id = call.id;
        calls[call.index].name += call.function?.name ?? '';
        calls[call.index].args += call.function?.arguments ?? '';
      }
      finish = choice.finish_reason ?? finish;
    }
    expect(content).toBe('');
    expect(calls).toEqual({ 0: { id: expect.stringMatching(/^call_/), name: 'get_weather', args: '{"city":"Paris"}' } });
    expect(finish).toBe('tool_calls');
  });

  test('a tool result is rendered back into the next prompt', async () => {
    upstream.reply({ json: completion('It is sunny in Paris.') });
    const answer = await client.chat.completions.create({
      model: 'm',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' },
      ],
    });
    expect(answer.choices[0].message.content).toBe('It is sunny in Paris.');
    const prompt = (upstream.requests[0].body as { prompt: string }).prompt;
    expect(prompt).toContain('<tool_response>\n{"sky":"sunny"}\n</tool_response>');
  });
});
