/** NeutralRequest -> strict OpenAI bodies: a small request in, the exact body out. */
import { toWireBody } from '../../../adapters/openai/to-wire-body.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { plannedWire } from '../../helpers/planned-wire.js';

/** As a caller's request reaches the wire: planned for a openai backend, then built. */
let planned: Awaited<ReturnType<typeof plannedWire>>;
beforeAll(async () => {
  planned = await plannedWire('openai', { speaks: ['chat', 'completions'] });
});

const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'gpt-4o'),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const text = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('text', 'gpt-3.5-turbo-instruct'),
  prompt: 'Once',
  ...extra,
});

function rejection(request: NeutralRequest): { status: number; param: string | null; message: string } {
  try {
    planned(request);
  } catch (error) {
    if (error instanceof ProxyError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('openai toWireBody: chat', () => {
  test('the smallest request', () => {
    expect(toWireBody(chat())).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
  });

  test('every sampling and limit field OpenAI takes; max_completion_tokens, never max_tokens', () => {
    const request = chat({
      sampling: { temperature: 0.5, topP: 0.9, presencePenalty: 0.1, frequencyPenalty: 0.2, logitBias: { '50256': -100 }, seed: 7 },
      limits: { maxTokens: 16, stop: ['\n'], onContextOverflow: 'truncate' },
      choices: 2,
      user: 'u1',
      metadata: { team: 'a' },
      store: true,
      serviceTier: 'flex',
      promptCacheKey: 'k1',
    });
    expect(toWireBody(request)).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.5,
      top_p: 0.9,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      logit_bias: { '50256': -100 },
      seed: 7,
      max_completion_tokens: 16,
      stop: ['\n'],
      n: 2,
      user: 'u1',
      metadata: { team: 'a' },
      store: true,
      service_tier: 'flex',
      prompt_cache_key: 'k1',
    });
  });

  test('logprobs: true + top_logprobs, whichever shape the caller used', () => {
    expect(toWireBody(chat({ logprobs: { top: 3, shape: 'legacy' } }))).toMatchObject({ logprobs: true, top_logprobs: 3 });
    expect(toWireBody(chat({ logprobs: { top: 0, shape: 'chat' } }))).toMatchObject({ logprobs: true, top_logprobs: 0 });
  });

  test('messages: content parts, tool calls, tool results and extra wire keys restored', () => {
    const request = chat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', url: 'https://x/cat.png', detail: 'low', extra: { image_url: { max_long_side_pixel: 512 } } },
            { type: 'audio', data: 'AAA=', format: 'wav' },
            { type: 'file', file: { file_id: 'file-1' } },
          ],
          name: 'ann',
        },
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'call_1', name: 'look', arguments: '{"q":1}' }],
          extra: { audio: { id: 'audio_1' } },
        },
        { role: 'tool', content: 'a cat', toolCallId: 'call_1' },
        { role: 'function', content: '42', name: 'answer', toolCallId: 'call_4' },
      ],
    });
    expect(toWireBody(request).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'https://x/cat.png', detail: 'low', max_long_side_pixel: 512 } },
          { type: 'input_audio', input_audio: { data: 'AAA=', format: 'wav' } },
          { type: 'file', file: { file_id: 'file-1' } },
        ],
        name: 'ann',
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
        audio: { id: 'audio_1' },
      },
      { role: 'tool', content: 'a cat', tool_call_id: 'call_1' },
      // A legacy function result answers a call sent as a tool call, so it goes as a tool message.
      { role: 'tool', content: '42', tool_call_id: 'call_4' },
    ]);
  });

  test('earlier reasoning is not sent to OpenAI, with a warning', () => {
    const request = chat({
      messages: [
        { role: 'assistant', content: 'Yes.', reasoning: 'thinking...' },
        { role: 'user', content: 'Sure?' },
      ],
    });
    expect(toWireBody(request).messages).toEqual([
      { role: 'assistant', content: 'Yes.' },
      { role: 'user', content: 'Sure?' },
    ]);
    expect(request.warnings).toEqual(['messages[0].reasoning_content not sent: OpenAI takes no reasoning on input messages']);
  });

  test('tools, tool choice, parallel tool calls', () => {
    const request = chat({
      tools: [{ name: 'look', description: 'Looks', parameters: { type: 'object' }, strict: true }, { name: 'bare' }],
      toolChoice: { name: 'look' },
      parallelToolCalls: false,
    });
    expect(toWireBody(request)).toMatchObject({
      tools: [
        { type: 'function', function: { name: 'look', description: 'Looks', parameters: { type: 'object' }, strict: true } },
        { type: 'function', function: { name: 'bare' } },
      ],
      tool_choice: { type: 'function', function: { name: 'look' } },
      parallel_tool_calls: false,
    });
    expect(toWireBody(chat({ toolChoice: 'required' })).tool_choice).toBe('required');
  });

  test('response formats; a json_schema without a name gets "response" (OpenAI requires one)', () => {
    expect(toWireBody(chat({ responseFormat: { type: 'text' } })).response_format).toEqual({ type: 'text' });
    expect(toWireBody(chat({ responseFormat: { type: 'json_object' } })).response_format).toEqual({ type: 'json_object' });
    expect(
      toWireBody(
        chat({ responseFormat: { type: 'json_schema', name: 'pet', schema: { type: 'object' }, strict: true, description: 'A pet' } }),
      ).response_format,
    ).toEqual({
      type: 'json_schema',
      json_schema: { name: 'pet', schema: { type: 'object' }, strict: true, description: 'A pet' },
    });
    expect(toWireBody(chat({ responseFormat: { type: 'json_schema', schema: { type: 'object' } } })).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' } },
    });
  });

  test('reasoning effort, prediction and relayed OpenAI fields', () => {
    const request = chat({
      reasoning: { effort: 'low' },
      prediction: 'old code',
      passthrough: { verbosity: 'low', web_search_options: {}, modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } },
    });
    expect(toWireBody(request)).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      reasoning_effort: 'low',
      prediction: { type: 'content', content: 'old code' },
      verbosity: 'low',
      web_search_options: {},
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
    });
  });

  test('a stream always asks for usage', () => {
    const request = chat({ stream: { includeUsage: false, tokenIds: false } });
    expect(toWireBody(request)).toEqual({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(toWireBody(request, { stream: false })).toEqual({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
  });

  test('what OpenAI has no field for is a 400 naming the caller field', () => {
    expect(rejection(chat({ sampling: { topK: 40 }, origins: { 'sampling.topK': 'top_k' } }))).toEqual({
      status: 400,
      param: 'top_k',
      message: expect.stringMatching(/^top_k is not supported by this backend \(backend "b", kind openai;/),
    });
    expect(
      rejection(chat({ sampling: { mirostat: { target: 5 } }, origins: { 'sampling.mirostat.target': 'mirostat_target' } })).param,
    ).toBe('mirostat_target');
    // A budget is not refused: the plan sends the effort its ladder gives, in a warning.
    expect(planned(chat({ reasoning: { budgetTokens: 2048 }, origins: { 'reasoning.budgetTokens': 'reasoning_effort' } }))).toMatchObject({
      reasoning_effort: 'low',
    });
    expect(rejection(chat({ prediction: [1, 2], origins: { prediction: 'speculation' } })).param).toBe('speculation');
    expect(rejection(chat({ echo: { all: true }, origins: { echo: 'echo' } })).param).toBe('echo');
    expect(
      rejection(chat({ responseFormat: { type: 'grammar', grammar: 'root ::= "a"' }, origins: { responseFormat: 'response_format' } })),
    ).toEqual({
      status: 400,
      param: 'response_format',
      message: expect.stringMatching(/^response_format is not supported by this backend \(backend "b", kind openai;/),
    });
    expect(rejection(chat({ responseFormat: { type: 'json_object', schema: {} } })).param).toBe('response_format');
    expect(rejection(chat({ passthrough: { prompt_truncate_len: 100 } })).param).toBe('prompt_truncate_len');
    expect(rejection(chat({ messages: [{ role: 'user', content: [{ type: 'video', url: 'https://x/v.mp4' }] }] })).param).toBe(
      'messages[0].content[0].type',
    );
  });
});

describe('openai toWireBody: legacy completions', () => {
  test('prompt, max_tokens and the integer logprobs', () => {
    const request = text({
      limits: { maxTokens: 8, stop: ['.'], onContextOverflow: 'truncate' },
      logprobs: { top: 2, shape: 'chat' },
      sampling: { temperature: 0 },
      echo: { all: true },
    });
    expect(toWireBody(request)).toEqual({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Once',
      temperature: 0,
      stop: ['.'],
      max_tokens: 8,
      logprobs: 2,
      echo: true,
    });
  });

  test('a token-id prompt with echo and no logprobs asks for logprobs 0, to find where the echo ends', () => {
    expect(toWireBody(text({ prompt: [1, 2, 3], echo: { all: true }, stream: { includeUsage: false, tokenIds: false } }))).toEqual({
      model: 'gpt-3.5-turbo-instruct',
      prompt: [1, 2, 3],
      logprobs: 0,
      echo: true,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('chat-only features and echo_last are rejected', () => {
    expect(rejection(text({ echo: { all: false, lastTokens: 3 }, origins: { echo: 'echo_last' } }))).toEqual({
      status: 400,
      param: 'echo_last',
      message: expect.stringMatching(/^echo_last is not supported by this backend \(backend "b", kind openai;/),
    });
    expect(rejection(text({ responseFormat: { type: 'json_object' }, origins: { responseFormat: 'response_format' } })).param).toBe(
      'response_format',
    );
    // A soft field the completions endpoint has no place for is not sent (the plan's warning), never a 400.
    const cacheKey = text({ promptCacheKey: 'k', origins: { promptCacheKey: 'prompt_cache_key' } });
    expect(planned(cacheKey)).not.toHaveProperty('prompt_cache_key');
    expect(toWireBody(text({ responseFormat: { type: 'text' } }))).toEqual({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once' });
  });
});
