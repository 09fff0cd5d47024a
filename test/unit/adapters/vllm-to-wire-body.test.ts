/** NeutralRequest -> vLLM bodies, completions and chat: a small request in, the exact body out. */
import { toWireBody } from '../../../adapters/vllm/to-wire-body.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { rejection } from '../../helpers/rejection.js';
import { plannedWire } from '../../helpers/planned-wire.js';

/** As a caller's request reaches the wire: planned for a vllm backend, then built. */
let planned: Awaited<ReturnType<typeof plannedWire>>;
beforeAll(async () => {
  planned = await plannedWire('vllm');
});

const MODEL = 'Qwen/Qwen3-8B';
const text = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('text', MODEL), prompt: 'Once', ...extra });
const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', MODEL),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});
const messages = [{ role: 'user', content: 'Hi' }];

describe('vllm toWireBody: completions', () => {
  test('the smallest request', () => {
    expect(toWireBody(text())).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test("every sampling parameter vLLM declares, under vLLM's names", () => {
    const request = text({
      prompt: ['a', 'b'],
      sampling: {
        temperature: 0.7,
        topP: 0.9,
        topK: 40,
        minP: 0.05,
        frequencyPenalty: 0.1,
        presencePenalty: 0.2,
        repetitionPenalty: 1.1,
        seed: 42,
        logitBias: { '13': 5 },
      },
      limits: { maxTokens: 32, stop: ['\n\n'], ignoreEos: true, onContextOverflow: 'error' },
      choices: 3,
      user: 'u',
      promptCacheKey: 'pk',
      promptCacheIsolationKey: 'tenant-7',
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      prompt: ['a', 'b'],
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      repetition_penalty: 1.1,
      seed: 42,
      logit_bias: { '13': 5 },
      n: 3,
      stop: ['\n\n'],
      max_tokens: 32,
      ignore_eos: true,
      user: 'u',
      cache_salt: 'tenant-7',
    });
  });

  test('logprobs are the integer on completions, whichever shape the caller used', () => {
    expect(toWireBody(text({ logprobs: { top: 3, shape: 'legacy' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 3 });
    expect(toWireBody(text({ logprobs: { top: 2, shape: 'chat' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 2 });
  });

  test('echo; on token ids without logprobs, logprobs 0 to find where the echo ends', () => {
    expect(toWireBody(text({ echo: { all: true } }))).toEqual({ model: MODEL, prompt: 'Once', echo: true });
    expect(toWireBody(text({ prompt: [1, 2, 3], echo: { all: true } }))).toEqual({
      model: MODEL,
      prompt: [1, 2, 3],
      logprobs: 0,
      echo: true,
    });
  });

  test('structured output: response_format, or structured_outputs for a json_object schema and a grammar', () => {
    const schema = { type: 'object' };
    expect(toWireBody(text({ responseFormat: { type: 'json_object' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      response_format: { type: 'json_object' },
    });
    expect(toWireBody(text({ responseFormat: { type: 'json_object', schema } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      structured_outputs: { json: schema },
    });
    expect(toWireBody(text({ responseFormat: { type: 'json_schema', schema } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema } },
    });
    expect(toWireBody(text({ responseFormat: { type: 'grammar', grammar: 'root ::= "yes"' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      structured_outputs: { grammar: 'root ::= "yes"' },
    });
  });

  test('token ids: return_token_ids, for the whole answer or per streamed delta', () => {
    expect(toWireBody(text({ returnTokenIds: true }))).toEqual({ model: MODEL, prompt: 'Once', return_token_ids: true });
    expect(toWireBody(text({ stream: { includeUsage: false, tokenIds: true } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      return_token_ids: true,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('what vLLM has no field for is a 400 naming the caller field (vLLM would only log it)', () => {
    expect(rejection(() => planned(text({ sampling: { typicalP: 0.9 }, origins: { 'sampling.typicalP': 'typical_p' } })))).toMatchObject({
      status: 400,
      param: 'typical_p',
      code: 'unsupported_parameter',
    });
    expect(
      rejection(() => planned(text({ sampling: { mirostat: { target: 5 } }, origins: { 'sampling.mirostat.target': 'mirostat_target' } }))),
    ).toMatchObject({ param: 'mirostat_target' });
    expect(rejection(() => planned(text({ echo: { all: false, lastTokens: 2 }, origins: { echo: 'echo_last' } })))).toMatchObject({
      param: 'echo_last',
    });
    expect(
      rejection(() => planned(text({ reasoning: { effort: 'low' }, origins: { 'reasoning.effort': 'reasoning_effort' } }))),
    ).toMatchObject({ param: 'reasoning_effort' });
    expect(
      rejection(() =>
        planned(text({ vendor: { fireworks: { rawOutput: true } }, origins: { 'vendor.fireworks.rawOutput': 'raw_output' } })),
      ),
    ).toMatchObject({
      param: 'raw_output',
    });
    expect(rejection(() => planned(text({ passthrough: { safe_tokenization: true } })))).toMatchObject({ param: 'safe_tokenization' });
  });
});

describe('vllm toWireBody: chat', () => {
  test('max_completion_tokens, logprobs true + top_logprobs (0 allowed), reasoning_effort', () => {
    const request = chat({
      limits: { maxTokens: 8, stop: [], onContextOverflow: 'truncate' },
      logprobs: { top: 0, shape: 'chat' },
      reasoning: { effort: 'high' },
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      messages,
      max_completion_tokens: 8,
      logprobs: true,
      top_logprobs: 0,
      reasoning_effort: 'high',
    });
  });

  test('tools, tool_choice and parallel_tool_calls as OpenAI sends them', () => {
    const request = chat({ tools: [{ name: 'f', parameters: { type: 'object' } }], toolChoice: { name: 'f' }, parallelToolCalls: false });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      messages,
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
    });
  });

  test('earlier reasoning is not sent back (named in a warning); video parts pass, file parts are a 400', () => {
    const request = chat({
      messages: [
        { role: 'assistant', content: 'Hello', reasoning: 'greet' },
        { role: 'user', content: [{ type: 'video', url: 'https://v/1.mp4' }] },
      ],
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      messages: [
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://v/1.mp4' } }] },
      ],
    });
    expect(request.warnings).toEqual(['messages[0].reasoning_content not sent: vLLM takes no reasoning on input messages']);
    expect(rejection(() => planned(chat({ messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] })))).toMatchObject({
      param: 'messages[0].content[0].type',
    });
  });
});
