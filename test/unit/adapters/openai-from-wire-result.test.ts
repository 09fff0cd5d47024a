/** OpenAI-compatible response bodies -> NeutralResult: synthetic OpenAI shapes, then real llama-server bytes. */
import { readdirSync } from 'node:fs';
import { fromWireResult } from '../../../adapters/openai/from-wire-result.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { CAPTURES, capture, captureRequest, withCaptures } from './capture-request.js';

const chatRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'gpt-4o'),
  messages: [],
  ...extra,
});
const textRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('text', 'gpt-3.5-turbo-instruct'),
  prompt: 'Once upon',
  ...extra,
});

function failure(run: () => unknown): ProxyError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('expected a ProxyError');
}

describe('openai fromWireResult', () => {
  test('a chat completion with tool calls, refusal, reasoning and detailed usage', () => {
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gpt-4o-2024-08-06',
      system_fingerprint: 'fp_1',
      service_tier: 'default',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          logprobs: null,
          message: {
            role: 'assistant',
            content: null,
            refusal: null,
            reasoning_content: 'Let me look.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"q":"cat"}' } }],
          },
        },
      ],
      usage: {
        prompt_tokens: 9,
        completion_tokens: 12,
        total_tokens: 21,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 4 },
      },
    };
    expect(fromWireResult(body, chatRequest())).toEqual({
      id: 'chatcmpl-1',
      model: 'gpt-4o-2024-08-06',
      created: 1700000000,
      systemFingerprint: 'fp_1',
      serviceTier: 'default',
      choices: [
        {
          index: 0,
          text: '',
          finishReason: 'tool_calls',
          reasoning: 'Let me look.',
          refusal: null,
          toolCalls: [{ id: 'call_1', name: 'look', arguments: '{"q":"cat"}' }],
        },
      ],
      usage: { promptTokens: 9, completionTokens: 12, totalTokens: 21, cachedPromptTokens: 0, reasoningTokens: 4 },
    });
  });

  test("vLLM's `reasoning` key and a refusal", () => {
    const body = {
      id: 'x',
      created: 1,
      model: 'm',
      choices: [
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '', reasoning: 'hmm', refusal: 'I cannot help.' } },
      ],
    };
    expect(fromWireResult(body, chatRequest()).choices).toEqual([
      { index: 0, text: '', finishReason: 'stop', reasoning: 'hmm', refusal: 'I cannot help.' },
    ]);
  });

  test('chat logprobs; unasked logprobs are not kept', () => {
    const logprobs = {
      content: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105] }] }],
      refusal: null,
    };
    const body = {
      id: 'x',
      created: 1,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hi' }, logprobs }],
    };
    expect(fromWireResult(body, chatRequest({ logprobs: { top: 1, shape: 'chat' } })).choices[0].logprobs).toEqual([
      { token: 'Hi', logprob: -0.5, bytes: [72, 105], top: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105] }] },
    ]);
    expect(fromWireResult(body, chatRequest()).choices[0].logprobs).toBeUndefined();
  });

  test('legacy completions logprobs', () => {
    const body = {
      id: 'cmpl-1',
      object: 'text_completion',
      created: 2,
      model: 'gpt-3.5-turbo-instruct',
      choices: [
        {
          index: 0,
          text: ' a time',
          finish_reason: 'length',
          logprobs: {
            tokens: [' a', ' time'],
            token_logprobs: [-0.1, -0.2],
            top_logprobs: [{ ' a': -0.1, ' the': -2 }, { ' time': -0.2 }],
            text_offset: [9, 11],
          },
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 },
    };
    expect(fromWireResult(body, textRequest({ logprobs: { top: 2, shape: 'legacy' } }))).toEqual({
      id: 'cmpl-1',
      model: 'gpt-3.5-turbo-instruct',
      created: 2,
      choices: [
        {
          index: 0,
          text: ' a time',
          finishReason: 'length',
          logprobs: [
            {
              token: ' a',
              logprob: -0.1,
              top: [
                { token: ' a', logprob: -0.1 },
                { token: ' the', logprob: -2 },
              ],
              textOffset: 9,
            },
            { token: ' time', logprob: -0.2, top: [{ token: ' time', logprob: -0.2 }], textOffset: 11 },
          ],
        },
      ],
      usage: { promptTokens: 2, completionTokens: 2, totalTokens: 4 },
    });
  });

  test('echo: the prompt is taken off the text; its tokens go to promptLogprobs', () => {
    const body = {
      id: 'cmpl-2',
      created: 3,
      model: 'm',
      choices: [
        {
          index: 0,
          text: 'Once upon a time',
          finish_reason: 'length',
          logprobs: {
            tokens: ['Once', ' upon', ' a', ' time'],
            token_logprobs: [null, -1, -2, -3],
            top_logprobs: [null, { ' upon': -1 }, { ' a': -2 }, { ' time': -3 }],
            text_offset: [0, 4, 9, 11],
          },
        },
      ],
    };
    const [choice] = fromWireResult(body, textRequest({ echo: { all: true }, logprobs: { top: 1, shape: 'legacy' } })).choices;
    expect(choice).toEqual({
      index: 0,
      text: ' a time',
      finishReason: 'length',
      promptLogprobs: [
        { token: 'Once', logprob: 0, noLogprob: true, top: [], textOffset: 0 },
        { token: ' upon', logprob: -1, top: [{ token: ' upon', logprob: -1 }], textOffset: 4 },
      ],
      logprobs: [
        { token: ' a', logprob: -2, top: [{ token: ' a', logprob: -2 }], textOffset: 9 },
        { token: ' time', logprob: -3, top: [{ token: ' time', logprob: -3 }], textOffset: 11 },
      ],
    });
  });

  test('echo of a token-id prompt without asked logprobs: tokens split the text, logprobs are not kept', () => {
    const body = {
      id: 'c',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          text: 'AB cd',
          finish_reason: 'stop',
          logprobs: { tokens: ['A', 'B', ' cd'], token_logprobs: [null, -1, -2], top_logprobs: null, text_offset: [0, 1, 2] },
        },
      ],
    };
    const [choice] = fromWireResult(body, textRequest({ prompt: [7, 8], echo: { all: true } })).choices;
    expect(choice).toEqual({
      index: 0,
      text: ' cd',
      finishReason: 'stop',
      promptLogprobs: [
        { token: 'A', logprob: 0, noLogprob: true, top: [], textOffset: 0 },
        { token: 'B', logprob: -1, top: [], textOffset: 1 },
      ],
    });
  });

  test('a backend that ignored echo is an error, not a silent omission', () => {
    const body = { id: 'c', created: 1, model: 'm', choices: [{ index: 0, text: ', there was', finish_reason: 'length' }] };
    expect(failure(() => fromWireResult(body, textRequest({ echo: { all: true } })))).toMatchObject({
      status: 502,
      code: 'echo_unavailable',
    });
  });

  test('an error object in a 200 body, and a body that is no completion', () => {
    expect(
      failure(() => fromWireResult({ error: { message: 'overloaded', type: 'server_error', code: 503 } }, chatRequest())),
    ).toMatchObject({
      status: 502,
      type: 'upstream_error',
      message: 'The upstream backend answered with an error: overloaded',
    });
    expect(failure(() => fromWireResult({ hello: 1 }, chatRequest()))).toMatchObject({ status: 502, code: 'upstream_bad_response' });
  });

  test('unknown finish reasons are named errors, known aliases are mapped', () => {
    const body = (finish: string) => ({ id: 'x', created: 1, model: 'm', choices: [{ index: 0, text: '', finish_reason: finish }] });
    expect(fromWireResult(body('eos'), textRequest()).choices[0].finishReason).toBe('stop');
    expect(fromWireResult(body('abort'), textRequest()).choices[0].finishReason).toBe('error');
    expect(fromWireResult(body('content_filter'), textRequest()).choices[0].finishReason).toBe('content_filter');
  });
});

withCaptures('openai fromWireResult on real llama-server responses', () => {
  test('cmpl_stop: a completion, with usage, cached tokens and timings', () => {
    expect(fromWireResult(JSON.parse(capture('cmpl_stop.response.json')), captureRequest('cmpl_stop'))).toEqual({
      id: 'chatcmpl-knGroNv9ulnZaLPUvriTkm3xfLbi5nyR',
      model: 'stories260K',
      created: 1795956885,
      systemFingerprint: 'b0-de3ff815',
      choices: [{ index: 0, text: ', there was a little girl named Lily', finishReason: 'stop' }],
      usage: { promptTokens: 5, completionTokens: 11, totalTokens: 16, cachedPromptTokens: 4 },
      perf: { prefillTime: 0.547 / 1000, generationTime: 1.689 / 1000 },
    });
  });

  test("chat_logprobs: chat-shaped logprobs with llama.cpp's `id`", () => {
    const result = fromWireResult(JSON.parse(capture('chat_logprobs.response.json')), captureRequest('chat_logprobs'));
    const [choice] = result.choices;
    expect(choice.logprobs?.[0]).toEqual({
      token: '"',
      logprob: -1.205102801322937,
      bytes: [34],
      tokenId: 436,
      top: [
        { token: '"', logprob: -1.205102801322937, bytes: [34], tokenId: 436 },
        { token: 'H', logprob: -2.3765790462493896, bytes: [72], tokenId: 440 },
      ],
    });
    expect(choice.logprobs?.map((entry) => entry.token).join('')).toBe(choice.text);
    expect(choice.finishReason).toBe('length');
  });

  test('cmpl_logprobs3: a legacy logprobs request answered in the chat shape', () => {
    const [choice] = fromWireResult(JSON.parse(capture('cmpl_logprobs3.response.json')), captureRequest('cmpl_logprobs3')).choices;
    expect(choice.logprobs).toHaveLength(16);
    expect(choice.logprobs?.[0]).toMatchObject({ token: ',', tokenId: 432, top: [{ token: ',' }, { token: ' there' }, { token: ' in' }] });
    expect(choice.logprobs?.map((entry) => entry.token).join('')).toBe(choice.text);
  });

  test('cmpl_echo_logprobs2: llama.cpp ignores echo, which the adapter reports', () => {
    expect(
      failure(() => fromWireResult(JSON.parse(capture('cmpl_echo_logprobs2.response.json')), captureRequest('cmpl_echo_logprobs2'))),
    ).toMatchObject({
      status: 502,
      code: 'echo_unavailable',
    });
  });

  test('cmpl_prompt_array and chat_n2: one choice per index', () => {
    expect(
      fromWireResult(JSON.parse(capture('cmpl_prompt_array.response.json')), captureRequest('cmpl_prompt_array')).choices.map((c) => [
        c.index,
        c.finishReason,
      ]),
    ).toEqual([
      [0, 'length'],
      [1, 'length'],
    ]);
    expect(fromWireResult(JSON.parse(capture('chat_n2.response.json')), captureRequest('chat_n2')).choices.map((c) => c.text)).toEqual([
      'But as they were a',
      'He was very dirty',
    ]);
  });

  test('every 200 capture parses: text, finish reason and usage are present', () => {
    const names = readdirSync(CAPTURES)
      .filter((file) => /^(chat|cmpl|error)_.*\.response\.json$/.test(file))
      .map((file) => file.replace('.response.json', ''));
    const ok = names.filter((name) => JSON.parse(capture(`${name}.response.json`)).choices);
    expect(ok.length).toBeGreaterThanOrEqual(10);
    for (const name of ok) {
      const request = captureRequest(name);
      delete request.echo; // llama.cpp ignores echo (see the test above)
      const result = fromWireResult(JSON.parse(capture(`${name}.response.json`)), request);
      expect(result.choices.length).toBeGreaterThan(0);
      for (const choice of result.choices) {
        expect(typeof choice.text).toBe('string');
        expect(['stop', 'length']).toContain(choice.finishReason);
      }
      expect(result.usage?.totalTokens).toBe((result.usage?.promptTokens ?? 0) + (result.usage?.completionTokens ?? 0));
    }
  });
});
