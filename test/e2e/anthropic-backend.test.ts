/**
 * The official `openai` SDK against the running proxy, over a strict mock of
 * Anthropic's Messages API (`kind: anthropic`): chat, streamed and not, a tool
 * loop, reasoning efforts as thinking (budget and adaptive backends), a
 * completions request rendered over chat, a 529 retried and then fallen back to
 * another backend, and an upstream 400 that names the caller's field.
 */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockAnthropic, textStream, type AnthropicReply, type MockAnthropic } from '../helpers/mock-anthropic.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import type { RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const UPSTREAM_KEY = 'sk-ant-upstream-0123456789';
const retries = { attempts: 1, initialDelayMs: 1, maxDelayMs: 5 };

const bodyOf = (request: RecordedRequest) => request.body as Record<string, unknown>;

/** The mock's answers, by the model asked for. */
function script(request: RecordedRequest): AnthropicReply {
  const body = bodyOf(request);
  switch (body.model) {
    case 'claude-busy':
      return { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } };
    case 'claude-stop':
      return {
        status: 400,
        error: { type: 'invalid_request_error', message: 'stop_sequences: each stop sequence must contain non-whitespace' },
      };
    case 'claude-tools':
      return Array.isArray(body.messages) && body.messages.length > 1
        ? { message: { content: [{ type: 'text', text: 'Sunny in Paris.' }] } }
        : {
            message: {
              content: [
                { type: 'text', text: 'Let me check.' },
                { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
              ],
              stop_reason: 'tool_use',
            },
          };
    case 'claude-think-stream':
      return {
        events: [
          { type: 'message_start', message: { id: 'msg_t', model: 'claude-think-stream', usage: { input_tokens: 4, output_tokens: 1 } } },
          { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Two and two.' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: '4' } },
          { type: 'content_block_stop', index: 1 },
          { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
          { type: 'message_stop' },
        ],
      };
    case 'claude-think':
    case 'claude-adaptive':
      return {
        message: {
          content: [
            { type: 'thinking', thinking: 'Two and two.', signature: 'sig-1' },
            { type: 'text', text: '4' },
          ],
        },
      };
    default:
      return body.stream ? { events: textStream(['Hel', 'lo', '!']) } : { message: {} };
  }
}

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1700000000,
  model: 'gpt-fallback',
  choices: [{ index: 0, message: { role: 'assistant', content: 'From the fallback.' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
};

describe('openai SDK -> dialect-proxy -> kind: anthropic', () => {
  let anthropic: MockAnthropic;
  let fallback: MockUpstream;
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    anthropic = await startMockAnthropic(script);
    fallback = await startMockUpstream({ json: chatAnswer });
    proxy = await startProxyFor(
      anthropic.url,
      { kind: 'anthropic', apiKey: UPSTREAM_KEY, retries },
      {
        backends: {
          claude: { kind: 'anthropic', url: anthropic.url, apiKey: UPSTREAM_KEY, retries },
          adaptive: {
            kind: 'anthropic',
            url: anthropic.url,
            apiKey: UPSTREAM_KEY,
            retries,
            adaptiveThinking: true,
            betas: ['effort-2025-11-24'],
          },
          openai: { kind: 'openai', url: fallback.url, apiKey: 'sk-openai', retries: { attempts: 0 } },
        },
        routes: [
          { model: 'claude-adaptive', backend: 'adaptive' },
          { model: 'claude-fallback', backend: ['claude', 'openai'], upstreamModels: { claude: 'claude-busy', openai: 'gpt-fallback' } },
          { model: '*', backend: 'claude' },
        ],
      },
    );
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'caller-key', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await Promise.all([anthropic.close(), fallback.close()]);
  });
  beforeEach(() => {
    anthropic.requests.length = 0;
    fallback.requests.length = 0;
  });

  test('chat: the system message is the system prompt, max_tokens the caller, the answer and usage in OpenAI shape', async () => {
    const answer = await client.chat.completions.create({
      model: 'claude-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 100,
      temperature: 0.5,
      stop: ['###'],
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
    const [sent] = anthropic.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({ 'x-api-key': UPSTREAM_KEY, 'anthropic-version': '2023-06-01' });
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-test',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.5,
      stop_sequences: ['###'],
    });
  });

  test('chat without max_tokens: the default max_tokens Anthropic requires is filled in', async () => {
    await client.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }] });
    expect(bodyOf(anthropic.requests[0]).max_tokens).toBe(4096);
  });

  test('chat stream: deltas, the finish reason, usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-test',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Hello!');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
    expect(bodyOf(anthropic.requests[0])).toMatchObject({ stream: true, max_tokens: 4096 });
  });

  test('a tool loop: the call comes back as tool_calls; the result goes back as a tool_result block', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await client.chat.completions.create({
      model: 'claude-tools',
      messages,
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    const call = first.choices[0].message.tool_calls?.[0];
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({ id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    expect(bodyOf(anthropic.requests[0])).toMatchObject({
      tools: [
        {
          name: 'get_weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    });

    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'toolu_01', content: '18°C, sunny' });
    const second = await client.chat.completions.create({ model: 'claude-tools', messages, tools });
    expect(second.choices[0].message.content).toBe('Sunny in Paris.');
    expect(bodyOf(anthropic.requests[1]).messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18°C, sunny' }] },
    ]);
  });

  test('reasoning_effort on a budget backend: thinking with the ladder budget, max_tokens raised by it; the thinking comes back', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'claude-think', messages: [{ role: 'user', content: '2+2?' }], reasoning_effort: 'high' })
      .withResponse();
    expect(bodyOf(anthropic.requests[0])).toMatchObject({ max_tokens: 16384 + 4096, thinking: { type: 'enabled', budget_tokens: 16384 } });
    expect(response.headers.get('x-dialect-warnings')).toMatch(/reasoning_effort "high" was sent as a thinking budget of 16384 tokens/);
    expect(data.choices[0].message.content).toBe('4');
    expect((data.choices[0].message as unknown as { reasoning_content?: string }).reasoning_content).toBe('Two and two.');
  });

  test('reasoning_effort on an adaptive backend: thinking adaptive + output_config.effort, with its beta header', async () => {
    await client.chat.completions.create({
      model: 'claude-adaptive',
      messages: [{ role: 'user', content: '2+2?' }],
      reasoning_effort: 'low',
    });
    const [sent] = anthropic.requests;
    expect(sent.body).toMatchObject({ max_tokens: 4096, thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    expect(sent.headers['anthropic-beta']).toBe('effort-2025-11-24');
  });

  test('the Responses API: input and instructions as the conversation, reasoning.effort as thinking', async () => {
    const response = await client.responses.create({
      model: 'claude-think',
      instructions: 'Be brief.',
      input: '2+2?',
      reasoning: { effort: 'medium' },
      max_output_tokens: 12000,
    });
    expect(response.output_text).toBe('4');
    expect(anthropic.requests[0].body).toMatchObject({
      max_tokens: 12000,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: '2+2?' }],
      thinking: { type: 'enabled', budget_tokens: 8192 },
    });
  });

  test('the Responses API streamed: thinking and its signature, then the text', async () => {
    const stream = await client.responses.create({ model: 'claude-think-stream', input: '2+2?', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('4');
    expect(types[types.length - 1]).toBe('response.completed');
  });

  test('chat streamed with thinking: reasoning_content deltas, then the content', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-think-stream',
      messages: [{ role: 'user', content: '2+2?' }],
      stream: true,
    });
    let reasoning = '';
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? '';
      text += delta?.content ?? '';
    }
    expect({ reasoning, text }).toEqual({ reasoning: 'Two and two.', text: '4' });
  });

  test('a completions request is rendered over chat: the prompt is one user message', async () => {
    const answer = await client.completions.create({ model: 'claude-test', prompt: 'Once upon a time', max_tokens: 20 });
    expect(answer.choices[0]).toMatchObject({ text: 'Hello!', finish_reason: 'stop' });
    expect(anthropic.requests[0].body).toEqual({
      model: 'claude-test',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Once upon a time' }],
    });
  });

  test('a 529 is retried, then the route falls back to the next backend', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'claude-fallback', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(data.choices[0].message.content).toBe('From the fallback.');
    expect(response.headers.get('x-dialect-backend')).toBe('openai');
    expect(anthropic.requests).toHaveLength(1 + retries.attempts);
    expect(fallback.requests[0].body).toMatchObject({ model: 'gpt-fallback' });
  });

  test('a 529 with no fallback: answered as an overloaded upstream, after the retries', async () => {
    const error = await client.chat.completions
      .create({ model: 'claude-busy', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 502, code: 'upstream_overloaded' });
    expect(anthropic.requests).toHaveLength(1 + retries.attempts);
  });

  test("an upstream 400 names the caller's field: temperature as sent, stop_sequences as the caller's stop", async () => {
    const hot = await client.chat.completions
      .create({ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }], temperature: 1.5 })
      .catch((e: unknown) => e);
    expect(hot).toMatchObject({ status: 400, param: 'temperature' });
    expect((hot as Error).message).toMatch(/less than or equal to 1/);

    const stop = await client.chat.completions
      .create({ model: 'claude-stop', messages: [{ role: 'user', content: 'Hi' }], stop: [' '] })
      .catch((e: unknown) => e);
    expect(stop).toMatchObject({ status: 400, param: 'stop' });
    expect(anthropic.requests).toHaveLength(2);
  });

  test('a field Anthropic has no use for is refused before anything is sent, naming it', async () => {
    const error = await client.chat.completions
      .create({ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }], seed: 7 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param: 'seed' });
    expect(anthropic.requests).toHaveLength(0);
  });

  test('n > 1: the proxy fans out, one Anthropic request per choice', async () => {
    const answer = await client.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'Hi' }], n: 2 });
    expect(answer.choices.map((choice) => choice.index)).toEqual([0, 1]);
    expect(anthropic.requests).toHaveLength(2);
    expect(anthropic.requests.every((request) => !('n' in bodyOf(request)))).toBe(true);
  });
});
