/** NeutralRequest -> llama-server bodies, completions and chat: a small request in, the exact body out. */
import { toWireBody } from '../../../adapters/llama-server/to-wire-body.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { rejection } from '../../helpers/rejection.js';
import { plannedWire } from '../../helpers/planned-wire.js';

/** As a caller's request reaches the wire: planned for a llama-server backend, then built. */
let planned: Awaited<ReturnType<typeof plannedWire>>;
beforeAll(async () => {
  planned = await plannedWire('llama-server');
});

const MODEL = 'stories260K';
const text = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('text', MODEL), prompt: 'Once', ...extra });
const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', MODEL),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

describe('llama-server toWireBody: completions', () => {
  test('the smallest request', () => {
    expect(toWireBody(text())).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test("every sampling field, under llama.cpp's names; mirostat is Mirostat 2.0", () => {
    const request = text({
      prompt: [
        [1, 403],
        [407, 261],
      ],
      sampling: {
        temperature: 0.7,
        topP: 0.9,
        topK: 40,
        minP: 0.05,
        typicalP: 0.95,
        frequencyPenalty: 0.1,
        presencePenalty: 0.2,
        repetitionPenalty: 1.1,
        mirostat: { target: 5, learningRate: 0.1 },
        seed: 42,
        logitBias: { '13': 5 },
      },
      limits: { maxTokens: 32, stop: ['\n\n'], ignoreEos: true, onContextOverflow: 'truncate' },
      choices: 2,
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      prompt: [
        [1, 403],
        [407, 261],
      ],
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      typical_p: 0.95,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      repeat_penalty: 1.1,
      mirostat: 2,
      mirostat_tau: 5,
      mirostat_eta: 0.1,
      seed: 42,
      logit_bias: { '13': 5 },
      n: 2,
      stop: ['\n\n'],
      max_tokens: 32,
      ignore_eos: true,
    });
  });

  test('mirostat with only a learning rate keeps the server default target', () => {
    expect(toWireBody(text({ sampling: { mirostat: { learningRate: 0.2 } } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      mirostat: 2,
      mirostat_eta: 0.2,
    });
  });

  test('legacy logprobs go as the integer; 0 asks for 1, since llama.cpp returns no logprobs at n_probs 0', () => {
    expect(toWireBody(text({ logprobs: { top: 3, shape: 'legacy' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 3 });
    expect(toWireBody(text({ logprobs: { top: 0, shape: 'legacy' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 1 });
    expect(toWireBody(text({ logprobs: { top: 2, shape: 'chat' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 2 });
  });

  test('structured output: its native json_schema and grammar fields (completions ignore response_format)', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    expect(toWireBody(text({ responseFormat: { type: 'json_object' } }))).toEqual({ model: MODEL, prompt: 'Once', json_schema: {} });
    expect(toWireBody(text({ responseFormat: { type: 'json_object', schema } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      json_schema: schema,
    });
    expect(toWireBody(text({ responseFormat: { type: 'json_schema', name: 'x', schema, strict: true } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      json_schema: schema,
    });
    expect(toWireBody(text({ responseFormat: { type: 'grammar', grammar: 'root ::= "yes"' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      grammar: 'root ::= "yes"',
    });
    expect(toWireBody(text({ responseFormat: { type: 'text' } }))).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test('a stream always asks for usage', () => {
    expect(toWireBody(text({ stream: { includeUsage: false, tokenIds: false } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(toWireBody(text(), { stream: false })).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test('user and prompt_cache_key are not sent: llama-server has neither, and they change no output', () => {
    expect(toWireBody(text({ user: 'u', promptCacheKey: 'pk' }))).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test('what llama-server cannot honour is a 400 naming the caller field, never a silent drop', () => {
    // echo is accepted and ignored by llama-server (capture cmpl_echo_logprobs2).
    expect(rejection(() => planned(text({ echo: { all: true }, origins: { echo: 'echo' } })))).toMatchObject({
      status: 400,
      param: 'echo',
      code: 'unsupported_parameter',
    });
    expect(
      rejection(() =>
        planned(
          text({
            limits: { stop: [], onContextOverflow: 'error' },
            origins: { 'limits.onContextOverflow': 'context_length_exceeded_behavior' },
          }),
        ),
      ),
    ).toMatchObject({ param: 'context_length_exceeded_behavior' });
    expect(rejection(() => planned(text({ returnTokenIds: true, origins: { returnTokenIds: 'return_token_ids' } })))).toMatchObject({
      param: 'return_token_ids',
    });
    expect(rejection(() => planned(text({ reasoning: { effort: 'low' } })))).toMatchObject({ param: 'reasoning_effort' });
    expect(rejection(() => planned(text({ passthrough: { safe_tokenization: true } })))).toMatchObject({ param: 'safe_tokenization' });
    expect(rejection(() => planned(text({ toolChoice: 'none', origins: { toolChoice: 'tool_choice' } })))).toMatchObject({
      param: 'tool_choice',
    });
  });

  test('max_tokens is never sent below 0 (llama.cpp reads -1 as "until the context is full")', () => {
    expect(
      rejection(() =>
        planned(
          text({ limits: { maxTokens: -1, stop: [], onContextOverflow: 'truncate' }, origins: { 'limits.maxTokens': 'max_tokens' } }),
        ),
      ),
    ).toMatchObject({ status: 400, param: 'max_tokens' });
    expect(toWireBody(text({ limits: { maxTokens: 0, stop: [], onContextOverflow: 'truncate' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      max_tokens: 0,
    });
  });

  test('a seed outside uint32, or its "random" value, is a 400 rather than a silently random seed', () => {
    for (const seed of [-1, 4294967295, 2 ** 40]) {
      expect(rejection(() => planned(text({ sampling: { seed } })))).toMatchObject({ status: 400, param: 'seed' });
    }
    expect(toWireBody(text({ sampling: { seed: 0 } }))).toEqual({ model: MODEL, prompt: 'Once', seed: 0 });
  });
});

describe('llama-server toWireBody: chat', () => {
  test('messages as OpenAI sends them, reasoning_content kept (llama.cpp templates read it), max_tokens', () => {
    const request = chat({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello', reasoning: 'greet back' },
      ],
      limits: { maxTokens: 8, stop: [], onContextOverflow: 'truncate' },
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello', reasoning_content: 'greet back' },
      ],
      max_tokens: 8,
    });
  });

  test('logprobs: true + top_logprobs, at least 1', () => {
    expect(toWireBody(chat({ logprobs: { top: 2, shape: 'chat' } }))).toEqual({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(toWireBody(chat({ logprobs: { top: 0, shape: 'chat' } }))).toEqual({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      logprobs: true,
      top_logprobs: 1,
    });
  });

  test("response_format as OpenAI's (a schema on json_object too); grammar as its own field", () => {
    const schema = { type: 'object' };
    const messages = [{ role: 'user', content: 'Hi' }];
    expect(toWireBody(chat({ responseFormat: { type: 'json_object' } }))).toEqual({
      model: MODEL,
      messages,
      response_format: { type: 'json_object' },
    });
    expect(toWireBody(chat({ responseFormat: { type: 'json_object', schema } }))).toEqual({
      model: MODEL,
      messages,
      response_format: { type: 'json_object', schema },
    });
    expect(toWireBody(chat({ responseFormat: { type: 'json_schema', name: 'cat', schema, strict: true } }))).toEqual({
      model: MODEL,
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'cat', schema, strict: true } },
    });
    expect(toWireBody(chat({ responseFormat: { type: 'grammar', grammar: 'root ::= "a"' } }))).toEqual({
      model: MODEL,
      messages,
      grammar: 'root ::= "a"',
    });
  });

  test('tools only with --jinja; without, tool_choice auto/none (nothing to choose) are not sent, anything else is a 400', () => {
    const tools = [{ name: 'get_weather', parameters: { type: 'object' } }];
    expect(rejection(() => planned(chat({ tools, origins: { tools: 'tools' } })))).toMatchObject({
      status: 400,
      param: 'tools',
      message: expect.stringContaining('without --jinja'),
    });
    expect(rejection(() => planned(chat({ toolChoice: 'required', origins: { toolChoice: 'tool_choice' } })))).toMatchObject({
      param: 'tool_choice',
    });
    expect(toWireBody(chat({ toolChoice: 'auto', parallelToolCalls: false }))).toEqual({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(toWireBody(chat({ tools, toolChoice: 'auto', parallelToolCalls: false }), { jinja: true })).toEqual({
      model: MODEL,
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
      parallel_tool_calls: false,
    });
  });

  test('content parts llama-server does not take are a 400 naming the part', () => {
    const request = chat({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'f' } }] }] });
    expect(rejection(() => planned(request))).toMatchObject({ param: 'messages[0].content[0].type' });
  });
});
