/**
 * The Vercel AI SDK's default OpenAI provider (`@ai-sdk/openai`, whose
 * `openai(model)` speaks the Responses API) against the running proxy: over a
 * mock chat backend, over a mock completions-only backend, and one
 * generateText on the bundled llama.cpp worker (needs ../shared, skipped where
 * it is absent).
 */
import path from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import {
  chatAnswer,
  chatChunk,
  chatStreamEnd,
  chatTextStream,
  completionAnswer,
  completionStream,
  hermesToolCall,
  lastBody,
  startWorkerProxy,
  usage,
} from '../helpers/responses-fixtures.js';
import { describeWithShared } from '../helpers/shared.js';
import { startProxyFor } from '../helpers/start-proxy.js';

type Provider = ReturnType<typeof createOpenAI>;

/** A Responses request body as the SDK sent it to the proxy. */
interface ResponsesBody {
  model: string;
  input: Record<string, unknown>[];
  tools?: Record<string, unknown>[];
  stream?: boolean;
}

/** The provider on the proxy; `sent` collects the bodies the SDK posts, so a test can see its side of the wire too. */
function providerOf(server: RunningServer, sent: ResponsesBody[] = []): Provider {
  const recording: typeof fetch = async (url, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as ResponsesBody);
    return fetch(url, init);
  };
  return createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'caller-key', fetch: recording });
}

/** A tool the SDK runs itself; it records what it was called with. */
function weatherTool(calls: unknown[]) {
  return tool({
    description: 'Weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async (input) => {
      calls.push(input);
      return { sky: 'sunny' };
    },
  });
}

describe('@ai-sdk/openai (Responses) -> dialect-proxy -> chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let openai: Provider;
  const sent: ResponsesBody[] = [];

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] });
    openai = providerOf(proxy, sent);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    sent.length = 0;
  });

  test('generateText: system and prompt reach the backend as chat messages; text, finish reason and usage come back', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Hello there!' }, 'stop', usage(9, 3)) });
    const result = await generateText({
      model: openai('gpt-test'),
      system: 'Be brief.',
      prompt: 'Hi',
      maxOutputTokens: 32,
      temperature: 0.5,
    });
    expect(upstream.requests[0].path).toBe('/v1/chat/completions');
    expect(upstream.requests[0].body).toMatchObject({
      // The SDK sends the prompt as input_text parts; they stay parts in chat.
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      temperature: 0.5,
    });
    expect(result.text).toBe('Hello there!');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 9, outputTokens: 3, totalTokens: 12 });
    expect(result.response.id).toMatch(/^resp_/);
  });

  test('generateText: a length finish is reported as length', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Hello th' }, 'length') });
    const result = await generateText({ model: openai('gpt-test'), prompt: 'Hi', maxOutputTokens: 16 });
    expect(result.text).toBe('Hello th');
    expect(result.finishReason).toBe('length');
  });

  test('streamText: text deltas, finish reason and usage', async () => {
    upstream.reply({ sse: chatTextStream(['Hel', 'lo', '!']) });
    const result = streamText({ model: openai('gpt-test'), prompt: 'Hi' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual(['Hel', 'lo', '!']);
    expect(await result.text).toBe('Hello!');
    expect(await result.finishReason).toBe('stop');
    expect(await result.usage).toMatchObject({ inputTokens: 9, outputTokens: 2, totalTokens: 11 });
  });

  test('streamText: reasoning deltas arrive as reasoning, apart from the text', async () => {
    upstream.reply({
      sse: [
        chatChunk({ role: 'assistant', content: '' }),
        chatChunk({ reasoning_content: 'Think' }),
        chatChunk({ reasoning_content: 'ing.' }),
        chatChunk({ content: 'Hi!' }),
        chatChunk({}, 'stop'),
        ...chatStreamEnd(),
      ],
    });
    const result = streamText({ model: openai('gpt-test'), prompt: 'Hi' });
    let reasoning = '';
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'reasoning-delta') reasoning += part.text;
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'error') throw part.error;
    }
    expect(reasoning).toBe('Thinking.');
    expect(text).toBe('Hi!');
  });

  test('Output.object: the schema goes as text.format json_schema, the answer comes back parsed', async () => {
    upstream.reply({ json: chatAnswer({ content: '{"name":"Ada","age":36}' }) });
    const result = await generateText({
      model: openai('gpt-test'),
      prompt: 'Who wrote the first program?',
      output: Output.object({ schema: z.object({ name: z.string(), age: z.number().int() }) }),
    });
    expect(sent[0]).toMatchObject({ text: { format: { type: 'json_schema', strict: true } } });
    expect(upstream.requests[0].body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { strict: true, schema: { type: 'object', required: ['name', 'age'] } } },
    });
    expect(result.output).toEqual({ name: 'Ada', age: 36 });
  });

  test('tool loop: a call, the SDK runs the tool, function_call + function_call_output go back, then the final text', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? {
            json: chatAnswer(
              { tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
              'tool_calls',
            ),
          }
        : { json: chatAnswer({ content: 'It is sunny in Paris.' }) },
    );
    const calls: unknown[] = [];
    const result = await generateText({
      model: openai('gpt-test'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0].finishReason).toBe('tool-calls');
    expect(result.text).toBe('It is sunny in Paris.');
    // The SDK's second request: the earlier turn as a function_call item and the tool's result as its output.
    expect(sent).toHaveLength(2);
    expect(sent[1].input).toEqual([
      expect.objectContaining({ role: 'user' }),
      expect.objectContaining({ type: 'function_call', call_id: 'call_w1', name: 'weather', arguments: '{"city":"Paris"}' }),
      expect.objectContaining({ type: 'function_call_output', call_id: 'call_w1', output: '{"sky":"sunny"}' }),
    ]);
    expect(upstream.requests).toHaveLength(2);
    expect(upstream.requests[0].body).toMatchObject({
      tools: [
        { type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      ],
    });
    expect((upstream.requests[1].body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' },
    ]);
  });

  test('tool loop whose first step also has text: with store false the SDK sends the message back whole, joined to the call', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? {
            json: chatAnswer(
              {
                content: 'Let me check.',
                tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
              },
              'tool_calls',
            ),
          }
        : { json: chatAnswer({ content: 'It is sunny in Paris.' }) },
    );
    const calls: unknown[] = [];
    // With its default store: true the SDK would send the earlier message as an item_reference, which only a response store can resolve.
    const result = await generateText({
      model: openai('gpt-test'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: false } },
    });
    expect(result.text).toBe('It is sunny in Paris.');
    expect(sent[1].input).toEqual([
      expect.objectContaining({ role: 'user' }),
      expect.objectContaining({
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Let me check.' }],
        id: expect.stringMatching(/^msg_/),
      }),
      expect.objectContaining({ type: 'function_call', call_id: 'call_w1' }),
      expect.objectContaining({ type: 'function_call_output', call_id: 'call_w1' }),
    ]);
    expect((upstream.requests[1].body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    });
  });

  test('with the default store: true, an earlier message sent as an item_reference is a 400 that says how to send it whole', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? {
            json: chatAnswer(
              {
                content: 'Let me check.',
                tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
              },
              'tool_calls',
            ),
          }
        : { json: chatAnswer({ content: 'It is sunny in Paris.' }) },
    );
    const failure = generateText({
      model: openai('gpt-test'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool([]) },
      stopWhen: stepCountIs(3),
    });
    await expect(failure).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/item_reference.*responses\.store.*store: false/),
    });
    expect(sent[1].input[1]).toEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_/) });
    expect(upstream.requests).toHaveLength(1);
  });

  test('tool loop, streamed: the call streams in, the tool runs, the second stream gives the text', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? {
            sse: [
              chatChunk({
                role: 'assistant',
                content: null,
                tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'weather', arguments: '' } }],
              }),
              chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
              chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
              chatChunk({}, 'tool_calls'),
              ...chatStreamEnd(),
            ],
          }
        : { sse: chatTextStream(['It is ', 'sunny.']) },
    );
    const calls: unknown[] = [];
    const result = streamText({
      model: openai('gpt-test'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
    });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(text).toBe('It is sunny.');
    expect(await result.finishReason).toBe('stop');
    expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(lastBody<{ messages: unknown[] }>(upstream.requests).messages).toHaveLength(3);
  });
});

describe('@ai-sdk/openai (Responses) with its default store: true -> dialect-proxy with a response store -> chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let openai: Provider;
  const sent: ResponsesBody[] = [];

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai', speaks: ['chat'] },
      { responses: { store: { kind: 'memory', maxResponses: 100, maxAgeSeconds: 600 } } },
    );
    openai = providerOf(proxy, sent);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('tool loop whose first step has reasoning and text: the item_references the SDK sends are read from the store', async () => {
    upstream.reply((_request, index) =>
      index === 0
        ? {
            json: chatAnswer(
              {
                content: 'Let me check.',
                reasoning_content: 'I need the weather tool.',
                tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
              },
              'tool_calls',
            ),
          }
        : { json: chatAnswer({ content: 'It is sunny in Paris.' }) },
    );
    const calls: unknown[] = [];
    const result = await generateText({
      model: openai('gpt-test'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('It is sunny in Paris.');
    // The SDK leaves store out, counting on OpenAI's default (true), and refers to the earlier reasoning and message by id.
    expect(sent[0]).not.toHaveProperty('store');
    expect(sent[1].input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^rs_/) });
    expect(sent[1].input).toContainEqual({ type: 'item_reference', id: expect.stringMatching(/^msg_/) });
    // The references became the stored items again: the backend sees the whole earlier turn.
    expect((upstream.requests[1].body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }],
    });
  });
});

describe('@ai-sdk/openai (Responses) -> dialect-proxy -> completions-only backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let openai: Provider;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
    openai = providerOf(proxy);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('generateText goes through the chat template', async () => {
    upstream.reply({ json: completionAnswer('Hello there!') });
    const result = await generateText({ model: openai('accounts/fireworks/models/x'), system: 'Be brief.', prompt: 'Hi' });
    expect(upstream.requests[0].path).toBe('/v1/completions');
    expect((upstream.requests[0].body as { prompt: string }).prompt).toBe(
      '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
    expect(result.text).toBe('Hello there!');
    expect(result.finishReason).toBe('stop');
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 12 });
  });

  test('streamText: text deltas, finish reason and usage', async () => {
    upstream.reply({ sse: completionStream([' Once', ' upon', ' a time'], 'length') });
    const result = streamText({ model: openai('m'), prompt: 'Tell me a story.' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas).toEqual([' Once', ' upon', ' a time']);
    expect(await result.finishReason).toBe('length');
    expect(await result.usage).toMatchObject({ inputTokens: 30, outputTokens: 3 });
  });

  test('tool loop: the call parsed out of the text, the tool result rendered into the next prompt', async () => {
    upstream.reply((_request, index) => ({
      json: completionAnswer(index === 0 ? hermesToolCall('weather', { city: 'Paris' }) : 'It is sunny in Paris.'),
    }));
    const calls: unknown[] = [];
    const result = await generateText({
      model: openai('m'),
      prompt: 'Weather in Paris?',
      tools: { weather: weatherTool(calls) },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(result.steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.text).toBe('It is sunny in Paris.');
    const prompt = lastBody<{ prompt: string }>(upstream.requests).prompt;
    expect(prompt).toContain('<tool_call>\n{"name": "weather", "arguments": {"city": "Paris"}}\n</tool_call>');
    expect(prompt).toContain('<tool_response>\n{"sky":"sunny"}\n</tool_response>');
  });
});

const storiesPath = path.resolve('../shared/models/stories260K.gguf');

// Needs ../shared (models/stories260K.gguf, the smallest model there; chat goes through the fallback ChatML template).
describeWithShared(storiesPath)('@ai-sdk/openai (Responses) -> dialect-proxy -> bundled llama.cpp worker (stories260K)', () => {
  let proxy: RunningServer;

  beforeAll(async () => {
    proxy = await startWorkerProxy(storiesPath);
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  test('generateText: some text, a finish reason and token usage', async () => {
    const result = await generateText({
      model: providerOf(proxy)('stories'),
      prompt: 'Tell me a story.',
      maxOutputTokens: 16,
      temperature: 0,
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(result.finishReason);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeLessThanOrEqual(16);
  });
});
