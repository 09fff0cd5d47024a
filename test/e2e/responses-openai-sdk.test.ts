/**
 * The official `openai` SDK's Responses API (`client.responses.create`,
 * `.stream`, `.parse`) against the running proxy: over a mock chat backend,
 * over a mock completions-only backend (tool calls parsed out of the generated
 * text), and on the bundled llama.cpp worker. The worker tests need ../shared
 * (models/stories260K.gguf) and are skipped where it is absent.
 */
import path from 'node:path';
import OpenAI from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { RunningServer } from '../../src/http/server.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import {
  chatAnswer,
  chatChunk,
  chatStreamEnd,
  chatTextStream,
  completionAnswer,
  completionChunk,
  completionStream,
  hermesToolCall,
  lastBody,
  startWorkerProxy,
  weatherParameters,
} from '../helpers/responses-fixtures.js';
import { describeWithShared } from '../helpers/shared.js';
import { startProxyFor } from '../helpers/start-proxy.js';

type Tool = OpenAI.Responses.FunctionTool;
type StreamEvent = OpenAI.Responses.ResponseStreamEvent;
type FunctionCall = OpenAI.Responses.ResponseFunctionToolCall;

const weatherTool: Tool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather in a city',
  parameters: weatherParameters,
  strict: true,
};
const person = z.object({ name: z.string(), age: z.number().int() });

const clientOf = (server: RunningServer) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'caller-key', maxRetries: 0 });

/**
 * A Response's output, to send back in the next input. The SDK types output
 * items wider than input items (a computer call's output may be 'failed'); the
 * items of a function tool loop are valid input as they are.
 */
function replay(response: OpenAI.Responses.Response): OpenAI.Responses.ResponseInputItem[] {
  return response.output as OpenAI.Responses.ResponseInputItem[];
}

function functionCalls(response: OpenAI.Responses.Response): FunctionCall[] {
  return response.output.filter((item): item is FunctionCall => item.type === 'function_call');
}

/** Every event of a stream, in order, and the error it ended with, if any. */
async function drain(stream: ReturnType<OpenAI['responses']['stream']>): Promise<{ events: StreamEvent[]; error?: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events };
}

/** The sequence numbers count up from 0 with no gap, and the stream opens with created, in_progress. */
function expectWellFormed(events: StreamEvent[]): void {
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, i) => i));
  expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
}

describe('openai SDK responses -> dialect-proxy -> chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    // No retries: the 429 test below is about what the caller sees, not about the proxy's retries.
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'], apiKey: 'upstream-secret', retries: { attempts: 0 } });
    client = clientOf(proxy);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('create: string input and instructions become system + user messages; the answer is a completed Response', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Hello there!' }) });
    const response = await client.responses.create({
      model: 'gpt-test',
      input: 'Hi',
      instructions: 'Be brief.',
      max_output_tokens: 20,
      temperature: 0.5,
    });
    expect(upstream.requests[0].path).toBe('/v1/chat/completions');
    expect(upstream.requests[0].headers.authorization).toBe('Bearer upstream-secret');
    expect(upstream.requests[0].body).toMatchObject({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      temperature: 0.5,
    });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      instructions: 'Be brief.',
      max_output_tokens: 20,
      temperature: 0.5,
      error: null,
      incomplete_details: null,
      usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe('Hello there!');
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello there!', annotations: [], logprobs: [] }],
      },
    ]);
  });

  test('create: a length finish is an incomplete Response', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Hello th' }, 'length') });
    const response = await client.responses.create({ model: 'gpt-test', input: 'Hi', max_output_tokens: 16 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output_text).toBe('Hello th');
  });

  test('tool loop: a function_call item, then its output sent back with the earlier output items', async () => {
    upstream.reply({
      json: chatAnswer(
        { tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        'tool_calls',
      ),
    });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.responses.create({ model: 'gpt-test', input, tools: [weatherTool] });
    expect(lastBody(upstream.requests)).toMatchObject({
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather in a city', parameters: weatherParameters, strict: true },
        },
      ],
    });
    expect(first.status).toBe('completed');
    const [call] = functionCalls(first);
    expect(call).toEqual({
      id: expect.stringMatching(/^fc_/),
      type: 'function_call',
      status: 'completed',
      call_id: 'call_w1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(first.output_text).toBe('');

    upstream.reply({ json: chatAnswer({ content: 'It is sunny in Paris.' }) });
    const second = await client.responses.create({
      model: 'gpt-test',
      tools: [weatherTool],
      input: [...input, ...replay(first), { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
    });
    expect(lastBody(upstream.requests).messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' },
    ]);
    expect(second.output_text).toBe('It is sunny in Paris.');
  });

  test('two calls in one turn, and a named tool_choice: the calls go back as one assistant turn', async () => {
    const clockTool: Tool = { type: 'function', name: 'get_time', parameters: weatherParameters, strict: true };
    upstream.reply({
      json: chatAnswer(
        {
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
          ],
        },
        'tool_calls',
      ),
    });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather and time in Paris?' }];
    const first = await client.responses.create({
      model: 'gpt-test',
      input,
      tools: [weatherTool, clockTool],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: true,
    });
    expect(lastBody(upstream.requests)).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: true,
    });
    expect(first.tool_choice).toEqual({ type: 'function', name: 'get_weather' });
    const calls = functionCalls(first);
    expect(calls.map((call) => [call.call_id, call.name])).toEqual([
      ['call_a', 'get_weather'],
      ['call_b', 'get_time'],
    ]);
    expect(new Set(first.output.map((item) => item.id)).size).toBe(2);

    upstream.reply({ json: chatAnswer({ content: 'Sunny, and noon.' }) });
    await client.responses.create({
      model: 'gpt-test',
      tools: [weatherTool, clockTool],
      input: [
        ...input,
        ...replay(first),
        ...calls.map((call, i) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: ['sunny', 'noon'][i] })),
      ],
    });
    expect(lastBody(upstream.requests).messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'call_b', content: 'noon' },
    ]);
  });

  test('include message.output_text.logprobs with top_logprobs: logprobs on the output_text part', async () => {
    const entry = (token: string, logprob: number) => ({
      token,
      logprob,
      bytes: [...Buffer.from(token)],
      top_logprobs: [{ token, logprob, bytes: [...Buffer.from(token)] }],
    });
    upstream.reply({
      json: {
        ...(chatAnswer({ content: 'Hi!' }) as Record<string, unknown>),
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hi!' },
            logprobs: { content: [entry('Hi', -0.5), entry('!', -0.25)] },
            finish_reason: 'stop',
          },
        ],
      },
    });
    const response = await client.responses.create({
      model: 'gpt-test',
      input: 'Hi',
      include: ['message.output_text.logprobs'],
      top_logprobs: 1,
    });
    expect(lastBody(upstream.requests)).toMatchObject({ logprobs: true, top_logprobs: 1 });
    const message = response.output[0] as OpenAI.Responses.ResponseOutputMessage;
    const part = message.content[0] as OpenAI.Responses.ResponseOutputText;
    expect(part.logprobs?.map((logprob) => [logprob.token, logprob.logprob, logprob.top_logprobs.length])).toEqual([
      ['Hi', -0.5, 1],
      ['!', -0.25, 1],
    ]);
    expect(response.top_logprobs).toBe(1);
  });

  test('stream: typed events in order, sequence numbers from 0, finalResponse and output_text', async () => {
    upstream.reply({ sse: chatTextStream(['Hel', 'lo!']) });
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Hi', instructions: 'Be brief.' });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(snapshots).toEqual(['Hel', 'Hello!']);
    const final = await stream.finalResponse();
    expect(final.status).toBe('completed');
    expect(final.output_text).toBe('Hello!');
    expect(final.usage).toMatchObject({ input_tokens: 9, output_tokens: 2, total_tokens: 11 });
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.id).toBe(final.id);
    expect(completed.response.instructions).toBe('Be brief.');
    // The proxy asks the upstream for usage: a Responses stream always ends with it.
    expect(upstream.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  test('stream: a length finish ends with response.incomplete, the message marked incomplete', async () => {
    upstream.reply({ sse: chatTextStream(['Hel', 'lo th'], 'length') });
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Hi', max_output_tokens: 16 });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(events.at(-1)?.type).toBe('response.incomplete');
    const final = await stream.finalResponse();
    expect(final.status).toBe('incomplete');
    expect(final.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(final.output).toEqual([expect.objectContaining({ type: 'message', status: 'incomplete' })]);
    expect(final.output_text).toBe('Hello th');
  });

  test('stream: reasoning then text are two output items, one after the other', async () => {
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
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Hi' });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    const added = events.filter(
      (event): event is OpenAI.Responses.ResponseOutputItemAddedEvent => event.type === 'response.output_item.added',
    );
    expect(added.map((event) => [event.output_index, event.item.type])).toEqual([
      [0, 'reasoning'],
      [1, 'message'],
    ]);
    const final = await stream.finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(final.output[0]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking.' }] });
    expect(final.output_text).toBe('Hi!');
  });

  test('stream: a tool call arrives as function_call_arguments deltas and a function_call item', async () => {
    upstream.reply({
      sse: [
        chatChunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'get_weather', arguments: '' } }],
        }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
        chatChunk({}, 'tool_calls'),
        ...chatStreamEnd(),
      ],
    });
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Weather in Paris?', tools: [weatherTool] });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = events.find(
      (event): event is OpenAI.Responses.ResponseFunctionCallArgumentsDoneEvent => event.type === 'response.function_call_arguments.done',
    );
    expect(done).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    const final = await stream.finalResponse();
    expect(functionCalls(final)).toEqual([
      expect.objectContaining({ call_id: 'call_s1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' }),
    ]);
  });

  test('parse: a zod text format is sent as a json_schema response_format; output_parsed is the object', async () => {
    upstream.reply({ json: chatAnswer({ content: '{"name":"Ada","age":36}' }) });
    const response = await client.responses.parse({
      model: 'gpt-test',
      input: 'Who wrote the first program?',
      text: { format: zodTextFormat(person, 'person') },
    });
    expect(upstream.requests[0].body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'person', strict: true, schema: { type: 'object', required: ['name', 'age'], additionalProperties: false } },
      },
    });
    expect(response.output_parsed).toEqual({ name: 'Ada', age: 36 });
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'person', strict: true });
  });

  test('a hosted tool the tool choice forces is a 400 APIError naming it (offered, it is dropped with a warning)', async () => {
    const failure = client.responses.create({
      model: 'gpt-test',
      input: 'News today?',
      tools: [{ type: 'web_search_preview' }],
      tool_choice: { type: 'web_search_preview' },
    });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(failure).rejects.toMatchObject({ status: 400, param: 'tool_choice', message: expect.stringMatching(/hosted tool/) });
    expect(upstream.requests).toHaveLength(0);
  });

  test('previous_response_id without a response store is a 400 naming it', async () => {
    const failure = client.responses.create({ model: 'gpt-test', input: 'And then?', previous_response_id: 'resp_earlier' });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(failure).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
    expect(upstream.requests).toHaveLength(0);
  });

  test('an upstream 429 before the stream starts reaches the SDK as a RateLimitError', async () => {
    upstream.reply({ status: 429, headers: { 'retry-after': '3' }, json: { error: { message: 'slow down', type: 'rate_limit_error' } } });
    const stream = client.responses.stream({ model: 'gpt-test', input: 'Hi' });
    const { events, error } = await drain(stream);
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('3');
  });
});

describe('openai SDK responses -> dialect-proxy -> an upstream that fails mid-stream', () => {
  let upstream: FaultUpstream;
  let proxy: RunningServer;
  const upstreamError = (message: string) =>
    `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`;

  beforeAll(async () => {
    upstream = await startFaultUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'], retries: { attempts: 0 } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a connection that dies after some text: response.failed carries the error, not a silent end', async () => {
    upstream.script([{ sse: [chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Hel' }), { die: true }] }]);
    const stream = clientOf(proxy).responses.stream({ model: 'gpt-test', input: 'Hi' });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).toBe('response.failed');
    expect(last.response.status).toBe('failed');
    // The spec's ResponseError codes are few: a broken upstream is a server_error; the message says what broke.
    expect(last.response.error).toMatchObject({ code: 'server_error', message: expect.stringMatching(/broke off its stream/) });
    // What arrived before the break is kept, its item marked incomplete.
    expect(
      events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => (event as OpenAI.Responses.ResponseTextDeltaEvent).delta),
    ).toEqual(['Hel']);
    expect(last.response.output).toEqual([
      expect.objectContaining({ type: 'message', status: 'incomplete', content: [expect.objectContaining({ text: 'Hel' })] }),
    ]);
  });

  test('an error frame after some text: response.failed with the upstream message', async () => {
    upstream.script([
      { sse: [chatChunk({ role: 'assistant', content: '' }), chatChunk({ content: 'Hel' }), upstreamError('model overloaded')] },
    ]);
    const stream = clientOf(proxy).responses.stream({ model: 'gpt-test', input: 'Hi' });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect(last.type).toBe('response.failed');
    expect(last.response.error?.message).toMatch(/model overloaded/);
  });

  test('an error frame before any output: the SDK throws an APIError', async () => {
    upstream.script([{ sse: [upstreamError('model overloaded')] }]);
    const stream = clientOf(proxy).responses.stream({ model: 'gpt-test', input: 'Hi' });
    const { events, error } = await drain(stream);
    expect(events.map((event) => event.type)).not.toContain('response.completed');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toMatch(/model overloaded/);
  });
});

describe('openai SDK responses -> dialect-proxy -> completions-only backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
    client = clientOf(proxy);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('create: instructions and input are rendered through the chat template', async () => {
    upstream.reply({ json: completionAnswer('Hello there!') });
    const response = await client.responses.create({
      model: 'accounts/fireworks/models/x',
      input: 'Hi',
      instructions: 'Be brief.',
      max_output_tokens: 20,
    });
    expect(upstream.requests[0].path).toBe('/v1/completions');
    expect(upstream.requests[0].body).toMatchObject({
      prompt: '<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      max_tokens: 20,
    });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Hello there!');
    expect(response.usage).toMatchObject({ input_tokens: 30, output_tokens: 12, total_tokens: 42 });
  });

  test('tool loop: the call is parsed out of the text; its output is rendered back into the next prompt', async () => {
    upstream.reply({ json: completionAnswer(hermesToolCall('get_weather', { city: 'Paris' })) });
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.responses.create({ model: 'm', input, tools: [weatherTool] });
    expect(lastBody<{ prompt: string }>(upstream.requests).prompt).toContain('"name": "get_weather"');
    const calls = functionCalls(first);
    expect(calls).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: expect.stringMatching(/^call_/),
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
    ]);
    // No empty message item beside the call.
    expect(first.output.map((item) => item.type)).toEqual(['function_call']);

    upstream.reply({ json: completionAnswer('It is sunny in Paris.') });
    const second = await client.responses.create({
      model: 'm',
      tools: [weatherTool],
      input: [...input, ...replay(first), { type: 'function_call_output', call_id: calls[0].call_id, output: '{"sky":"sunny"}' }],
    });
    const prompt = lastBody<{ prompt: string }>(upstream.requests).prompt;
    expect(prompt).toContain('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
    expect(prompt).toContain('<tool_response>\n{"sky":"sunny"}\n</tool_response>');
    expect(second.output_text).toBe('It is sunny in Paris.');
  });

  test('stream: text deltas, then response.completed with usage', async () => {
    upstream.reply({ sse: completionStream([' Once', ' upon', ' a time']) });
    const stream = client.responses.stream({ model: 'm', input: 'Tell me a story.' });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(events.filter((event) => event.type === 'response.output_text.delta')).toHaveLength(3);
    expect(events.at(-1)?.type).toBe('response.completed');
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(' Once upon a time');
    expect(final.usage).toMatchObject({ input_tokens: 30, output_tokens: 3 });
  });

  test('stream: a tool call split across chunks arrives as one function_call item', async () => {
    upstream.reply({
      sse: [
        completionChunk('<tool_call>\n{"name": "get_'),
        completionChunk('weather", "arguments": {"city": "Paris"}}\n</tool'),
        completionChunk('_call>'),
        completionChunk('', 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const stream = client.responses.stream({ model: 'm', input: 'Weather in Paris?', tools: [weatherTool] });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(events.some((event) => event.type === 'response.output_text.delta')).toBe(false);
    const final = await stream.finalResponse();
    expect(final.output).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' }),
    ]);
  });

  test('parse: a zod text format reaches the completions backend as response_format', async () => {
    upstream.reply({ json: completionAnswer('{"name":"Ada","age":36}') });
    const response = await client.responses.parse({
      model: 'm',
      input: 'Who wrote the first program?',
      text: { format: zodTextFormat(person, 'person') },
    });
    expect(upstream.requests[0].body).toMatchObject({ response_format: { type: 'json_schema' } });
    expect(response.output_parsed).toEqual({ name: 'Ada', age: 36 });
  });
});

const storiesPath = path.resolve('../shared/models/stories260K.gguf');

// Needs ../shared (models/stories260K.gguf: the smallest model there; no instruct model is shared, so chat goes through the fallback ChatML template).
describeWithShared(storiesPath)('openai SDK responses -> dialect-proxy -> bundled llama.cpp worker (stories260K)', () => {
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    proxy = await startWorkerProxy(storiesPath);
    client = clientOf(proxy);
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  test('create: a Response with one message and token usage', async () => {
    const response = await client.responses.create({
      model: 'stories',
      input: 'Tell me a story.',
      instructions: 'You tell stories.',
      max_output_tokens: 16,
      temperature: 0,
    });
    expect(['completed', 'incomplete']).toContain(response.status);
    expect(response.output.map((item) => item.type)).toEqual(['message']);
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(response.usage?.output_tokens).toBeGreaterThan(0);
    expect(response.usage?.output_tokens).toBeLessThanOrEqual(16);
  });

  test('stream: the same text as the plain answer, well-formed events', async () => {
    const plain = await client.responses.create({ model: 'stories', input: 'Tell me a story.', max_output_tokens: 16, temperature: 0 });
    const stream = client.responses.stream({ model: 'stories', input: 'Tell me a story.', max_output_tokens: 16, temperature: 0 });
    const { events, error } = await drain(stream);
    expect(error).toBeUndefined();
    expectWellFormed(events);
    expect(['response.completed', 'response.incomplete']).toContain(events.at(-1)?.type);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(plain.output_text);
    expect(final.usage?.output_tokens).toBe(plain.usage?.output_tokens);
  });

  test('parse: the schema is enforced by a grammar, so even this story model gives a parsable object', async () => {
    const named = z.object({ name: z.string().max(12), age: z.number().int() });
    const response = await client.responses.parse({
      model: 'stories',
      input: 'Give me a name.',
      text: { format: zodTextFormat(named, 'person') },
      max_output_tokens: 60,
    });
    expect(response.status).toBe('completed');
    expect(typeof response.output_parsed?.name).toBe('string');
    expect(Number.isInteger(response.output_parsed?.age)).toBe(true);
  });
});
