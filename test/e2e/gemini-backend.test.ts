/**
 * The official `openai` SDK (chat and Responses) and `@anthropic-ai/sdk` against
 * the running proxy, over a strict mock of Google's Gemini API (`kind: gemini`):
 * text, streams, a two-turn tool loop whose second request carries the call's
 * thoughtSignature back (asserted on what the mock received), thinking, a
 * safety block reported, and an upstream error in the caller's dialect.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockGemini, textChunks, type GeminiReply, type MockGemini } from '../helpers/mock-gemini.js';
import type { RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const UPSTREAM_KEY = 'gemini-upstream-key-0123456789';
const SIGNATURE = 'CiQBjz1rX+signature/with+base64==';
const bodyOf = (request: RecordedRequest) => request.body as Record<string, unknown>;

const weatherCall = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE }],
      },
      finishReason: 'STOP',
    },
  ],
  responseId: 'resp-tools',
};

/** The mock's answers, by the model in the URL. */
function script(request: RecordedRequest): GeminiReply {
  const model = /models\/([^:]+):/.exec(request.path)?.[1];
  const body = bodyOf(request);
  const contents = body.contents as unknown[];
  switch (model) {
    case 'gemini-tools':
      return contents.length > 1
        ? { response: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny in Paris.' }] }, finishReason: 'STOP' }] } }
        : { response: weatherCall };
    case 'gemini-think':
      return {
        response: {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'Two and two.', thought: true }, { text: '4' }] },
              finishReason: 'STOP',
            },
          ],
          usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1, thoughtsTokenCount: 6, totalTokenCount: 11 },
        },
      };
    case 'gemini-unsafe':
      return {
        response: {
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'SAFETY' }],
        },
      };
    case 'gemini-blocked':
      return { response: { candidates: undefined, promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } };
    case 'gemini-busy':
      return { status: 429, error: { message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } };
    case 'gemini-bad':
      return { status: 400, error: { message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } };
    case 'gemini-quota':
      return {
        status: 429,
        error: {
          message: 'You exceeded your current quota.',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '41s' }],
        },
      };
    case 'gemini-bad-field':
      return {
        status: 400,
        error: {
          message: "Invalid value at 'generation_config.top_p' (TYPE_FLOAT), 7",
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'generation_config.top_p', description: 'Invalid value' }],
            },
          ],
        },
      };
    case 'gemini-bad-thinking':
      // No details: the field is only in the words.
      return {
        status: 400,
        error: {
          message:
            'Invalid JSON payload received. Unknown name "thinkingLevel" at \'generation_config.thinking_config\': Cannot find field.',
          status: 'INVALID_ARGUMENT',
        },
      };
    default:
      return request.path.includes('stream') ? { chunks: textChunks(['Hel', 'lo', '!']) } : { response: {} };
  }
}

describe('SDKs -> dialect-proxy -> kind: gemini', () => {
  let gemini: MockGemini;
  let proxy: RunningServer;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    gemini = await startMockGemini(script);
    proxy = await startProxyFor(gemini.url, { kind: 'gemini', apiKey: UPSTREAM_KEY, retries: { attempts: 0 } });
    openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'caller-key', maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: proxy.url, apiKey: 'caller-key', maxRetries: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await gemini.close();
  });
  beforeEach(() => {
    gemini.requests.length = 0;
  });

  test('chat: system messages merged into systemInstruction, sampling in generationConfig, the key as x-goog-api-key', async () => {
    const answer = await openai.chat.completions.create({
      model: 'gemini-test',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['###'],
      seed: 7,
    });
    expect(answer.choices[0]).toMatchObject({ message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' });
    expect(answer.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
    const [sent] = gemini.requests;
    expect(sent.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(UPSTREAM_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }, { text: 'Answer in English.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: { temperature: 0.5, topP: 0.9, seed: 7, stopSequences: ['###'], maxOutputTokens: 100 },
    });
  });

  test('chat stream: deltas, the finish reason, usage at the end', async () => {
    const stream = await openai.chat.completions.create({
      model: 'gemini-test',
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
    expect(gemini.requests[0].path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
  });

  test('chat tool loop: the second turn gives Gemini back the signature of its call', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await openai.chat.completions.create({ model: 'gemini-tools', messages, tools, tool_choice: 'required' });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    const call = first.choices[0].message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('no function call');
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(bodyOf(gemini.requests[0])).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object' } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY' } },
    });

    const second = await openai.chat.completions.create({
      model: 'gemini-tools',
      messages: [...messages, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' }],
      tools,
    });
    expect(second.choices[0].message.content).toBe('Sunny in Paris.');
    expect(bodyOf(gemini.requests[1]).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_resptools_0', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE }],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'call_resptools_0', name: 'get_weather', response: { sky: 'sunny' } } }] },
    ]);
  });

  test('a history from another model: its calls go with the bypass value, named in a warning', async () => {
    const response = await openai.chat.completions
      .create({
        model: 'gemini-tools',
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
          { role: 'tool', tool_call_id: 'toolu_01', content: 'sunny' },
        ],
      })
      .withResponse();
    expect(response.data.choices[0].message.content).toBe('Sunny in Paris.');
    expect(response.response.headers.get('x-dialect-warnings')).toContain('skip_thought_signature_validator');
    const model = (bodyOf(gemini.requests[0]).contents as { parts: Record<string, unknown>[] }[])[1];
    expect(model.parts[0].thoughtSignature).toBe('skip_thought_signature_validator');
  });

  test('Anthropic Messages tool loop: the tool_use id carries the signature back, system blocks merged', async () => {
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const first = await anthropic.messages.create({ model: 'gemini-tools', max_tokens: 200, system: 'Be brief.', messages, tools });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block) => block.type === 'tool_use');
    if (use?.type !== 'tool_use') throw new Error('no tool_use');
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const second = await anthropic.messages.create({
      model: 'gemini-tools',
      max_tokens: 200,
      system: 'Be brief.',
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
      ],
    });
    expect(second.content).toEqual(
      [{ type: 'text', text: 'Sunny in Paris.', citations: null }].map(({ citations: _c, ...block }) => block),
    );
    const sent = bodyOf(gemini.requests[1]);
    expect(sent.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect((sent.contents as { parts: Record<string, unknown>[] }[])[1].parts[0].thoughtSignature).toBe(SIGNATURE);
    expect((sent.contents as { parts: Record<string, unknown>[] }[])[2].parts[0]).toEqual({
      // The Messages dialect names tool_use ids toolu_...: the call and its response still share one.
      functionResponse: { id: 'toolu_resptools_0', name: 'get_weather', response: { result: 'sunny' } },
    });
  });

  test('Anthropic Messages stream: text deltas and the stop reason', async () => {
    const stream = anthropic.messages.stream({ model: 'gemini-test', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    const message = await stream.finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'Hello!' }]);
    expect(message.stop_reason).toBe('end_turn');
  });

  test('thinking: a budget goes as thinkingConfig with includeThoughts; thought parts come back as thinking', async () => {
    const message = await anthropic.messages.create({
      model: 'gemini-think',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'Two and two.' });
    expect(message.content[1]).toMatchObject({ type: 'text', text: '4' });
    expect(bodyOf(gemini.requests[0]).generationConfig).toEqual({
      maxOutputTokens: 4000,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
  });

  test('chat reasoning_effort: the ladder budget, and the reasoning tokens in usage', async () => {
    const answer = await openai.chat.completions.create({
      model: 'gemini-think',
      reasoning_effort: 'low',
      messages: [{ role: 'user', content: '2+2?' }],
    });
    expect(answer.choices[0].message.content).toBe('4');
    expect(answer.usage?.completion_tokens_details?.reasoning_tokens).toBe(6);
    expect(bodyOf(gemini.requests[0]).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
  });

  test('Responses: text, and a safety stop reported as content filtered', async () => {
    const answer = await openai.responses.create({ model: 'gemini-test', input: 'Hi', store: false });
    expect(answer.output_text).toBe('Hello!');
    const chat = await openai.chat.completions
      .create({ model: 'gemini-unsafe', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(chat.data.choices[0].finish_reason).toBe('content_filter');
    expect(chat.response.headers.get('x-dialect-warnings')).toContain('SAFETY');
  });

  test('a blocked prompt: content_filter and the block reason in a warning, never hidden', async () => {
    const chat = await openai.chat.completions
      .create({ model: 'gemini-blocked', messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(chat.data.choices[0].finish_reason).toBe('content_filter');
    expect(chat.response.headers.get('x-dialect-warnings')).toContain('PROHIBITED_CONTENT');
    const message = await anthropic.messages.create({
      model: 'gemini-blocked',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(message.stop_reason).toBe('refusal');
  });

  test('upstream errors in the caller dialect: a 429 with its status, a 400 as invalid_request_error', async () => {
    const busy = await openai.chat.completions
      .create({ model: 'gemini-busy', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(OpenAI.RateLimitError);
    const bad = await anthropic.messages
      .create({ model: 'gemini-bad', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect((bad as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('invalid argument') as unknown },
    });
  });

  test("Google's RetryInfo reaches the caller as Retry-After; its field violations name the caller's own field", async () => {
    const quota = await openai.chat.completions
      .create({ model: 'gemini-quota', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(quota).toBeInstanceOf(OpenAI.RateLimitError);
    expect((quota as InstanceType<typeof OpenAI.RateLimitError>).headers?.get('retry-after')).toBe('41');

    const chat = await openai.chat.completions
      .create({ model: 'gemini-bad-field', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.5, top_p: 0.9 })
      .catch((e: unknown) => e);
    expect((chat as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('top_p');
    const messages = await anthropic.messages
      .create({
        model: 'gemini-bad-thinking',
        max_tokens: 4096,
        messages: [{ role: 'user', content: 'Hi' }],
        thinking: { type: 'enabled', budget_tokens: 2048 },
      })
      .catch((e: unknown) => e);
    expect(messages).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('thinking_config') as unknown },
    });
    // The chat caller's effort went out approximated, as a budget: no field of the caller's is guessed.
    const effort = await openai.chat.completions
      .create({ model: 'gemini-bad-thinking', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'high' })
      .catch((e: unknown) => e);
    expect(effort).toBeInstanceOf(OpenAI.BadRequestError);
    expect((effort as InstanceType<typeof OpenAI.BadRequestError>).param).toBeNull();
  });

  test('a schema keyword Gemini cannot take (toolSchemas: parameters) names the tool by name, in any dialect', async () => {
    const strict = await startProxyFor(gemini.url, { kind: 'gemini', apiKey: UPSTREAM_KEY, toolSchemas: 'parameters' });
    try {
      const claude = new Anthropic({ baseURL: strict.url, apiKey: 'caller-key', maxRetries: 0 });
      const refused = await claude.messages
        .create({
          model: 'gemini-test',
          max_tokens: 10,
          messages: [{ role: 'user', content: 'Hi' }],
          tools: [{ name: 'pick', input_schema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false } }],
        })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      const { message } = (refused as { error: { error: { message: string } } }).error.error;
      expect(message).toMatch(/^tools: the parameters of function "pick" use the keyword additionalProperties/);
      expect(message).not.toContain('function.parameters');
      expect(gemini.requests).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  test('a field Gemini cannot take is refused by name before it is sent', async () => {
    const refused = await openai.chat.completions
      .create({ model: 'gemini-test', messages: [{ role: 'user', content: 'Hi' }], logit_bias: { '50256': -100 } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('logit_bias');
    expect(gemini.requests).toHaveLength(0);
  });
});
