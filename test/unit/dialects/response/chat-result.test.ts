/** NeutralResult -> `chat.completion`: a small result in, the exact wire object out. */
import { describe, expect, it } from '@jest/globals';
import { serializeChatResult } from '../../../../src/dialects/openai-chat/serialize-result.js';
import { chatErrorBody } from '../../../../src/dialects/openai-chat/error-body.js';
import { invalidRequest } from '../../../../src/errors/proxy-error.js';
import type { NeutralResult } from '../../../../src/model/result.js';
import { request, token } from './helpers.js';

const base = { id: 'chatcmpl-1', model: 'm', created: 7 };
const usage = { promptTokens: 5, completionTokens: 2, totalTokens: 7 };

describe('serializeChatResult', () => {
  it('plain text: refusal null, logprobs null, usage without unmeasured details', () => {
    const result: NeutralResult = { ...base, choices: [{ index: 0, text: 'Hi', finishReason: 'stop' }], usage };
    expect(serializeChatResult(result, request('chat'))).toStrictEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 7,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi', refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
  });

  it('usage details, service tier and system fingerprint when known', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: 'Hi', finishReason: 'stop' }],
      usage: { ...usage, cachedPromptTokens: 3, reasoningTokens: 0 },
      serviceTier: 'default',
      systemFingerprint: 'fp_1',
    };
    const body = serializeChatResult(result, request('chat'));
    expect(body.usage).toStrictEqual({
      prompt_tokens: 5,
      completion_tokens: 2,
      total_tokens: 7,
      prompt_tokens_details: { cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect([body.service_tier, body.system_fingerprint]).toStrictEqual(['default', 'fp_1']);
  });

  it('n=3: one choice each, in order', () => {
    const result: NeutralResult = {
      ...base,
      choices: [0, 1, 2].map((index) => ({
        index,
        text: `t${index}`,
        finishReason: index === 2 ? ('length' as const) : ('stop' as const),
      })),
    };
    expect(serializeChatResult(result, request('chat', { choices: 3 })).choices).toStrictEqual([
      { index: 0, message: { role: 'assistant', content: 't0', refusal: null }, logprobs: null, finish_reason: 'stop' },
      { index: 1, message: { role: 'assistant', content: 't1', refusal: null }, logprobs: null, finish_reason: 'stop' },
      { index: 2, message: { role: 'assistant', content: 't2', refusal: null }, logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('tool calls: content null when the model only called tools', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: '',
          finishReason: 'tool_calls',
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        },
      ],
    };
    expect(serializeChatResult(result, request('chat')).choices[0]).toStrictEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
  });

  it('legacy `functions` callers get function_call and finish_reason function_call', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: '', finishReason: 'tool_calls', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }] }],
    };
    expect(serializeChatResult(result, request('chat', { legacyFunctions: true })).choices[0]).toStrictEqual({
      index: 0,
      message: { role: 'assistant', content: null, refusal: null, function_call: { name: 'f', arguments: '{}' } },
      logprobs: null,
      finish_reason: 'function_call',
    });
  });

  it('legacy `functions` with two calls is an error, not a dropped call', () => {
    const calls = [
      { id: 'a', name: 'f', arguments: '{}' },
      { id: 'b', name: 'g', arguments: '{}' },
    ];
    const result: NeutralResult = { ...base, choices: [{ index: 0, text: '', finishReason: 'tool_calls', toolCalls: calls }] };
    expect(() => serializeChatResult(result, request('chat', { legacyFunctions: true }))).toThrow(/legacy `functions`/);
  });

  it('reasoning_content only when there is reasoning', () => {
    const result: NeutralResult = { ...base, choices: [{ index: 0, text: '4', reasoning: '2+2=4', finishReason: 'stop' }] };
    expect(serializeChatResult(result, request('chat')).choices[0].message).toStrictEqual({
      role: 'assistant',
      content: '4',
      refusal: null,
      reasoning_content: '2+2=4',
    });
  });

  it('logprobs as asked: content entries with top_logprobs always an array, refusal null', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: 'Hi!',
          finishReason: 'stop',
          logprobs: [
            token('Hi', -0.1, [
              ['Hi', -0.1],
              ['Hey', -2],
            ]),
            token('!', -0.5, [
              ['!', -0.5],
              ['.', -1],
            ]),
          ],
        },
      ],
    };
    expect(serializeChatResult(result, request('chat', { logprobs: { top: 1, shape: 'chat' } })).choices[0].logprobs).toStrictEqual({
      content: [
        { token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105] }] },
        { token: '!', logprob: -0.5, bytes: [33], top_logprobs: [{ token: '!', logprob: -0.5, bytes: [33] }] },
      ],
      refusal: null,
    });
    // logprobs: true with top_logprobs 0: still an empty array per token, never null.
    expect(serializeChatResult(result, request('chat', { logprobs: { top: 0, shape: 'chat' } })).choices[0].logprobs).toStrictEqual({
      content: [
        { token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [] },
        { token: '!', logprob: -0.5, bytes: [33], top_logprobs: [] },
      ],
      refusal: null,
    });
  });

  it('Fireworks integer `logprobs: N` on chat answers in the legacy shape', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: 'Hi!', finishReason: 'stop', logprobs: [token('Hi', -0.1, [['Hey', -2]]), token('!', -0.5)] }],
    };
    expect(serializeChatResult(result, request('chat', { logprobs: { top: 1, shape: 'legacy' } })).choices[0].logprobs).toStrictEqual({
      tokens: ['Hi', '!'],
      token_logprobs: [-0.1, -0.5],
      top_logprobs: [{ Hey: -2, Hi: -0.1 }, { '!': -0.5 }],
      text_offset: [0, 2],
    });
  });

  it('Fireworks extensions: perf_metrics, raw_output, token_ids and prompt_token_ids only when asked', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: 'Hi',
          finishReason: 'stop',
          tokenIds: [9, 8],
          promptTokenIds: [1, 2, 3],
          vendor: { fireworks: { rawOutput: { completion: 'Hi' } } },
        },
      ],
      usage: { ...usage, cachedPromptTokens: 1 },
      perf: { timeToFirstToken: 0.25, processingTime: 0.5, backend: { 'backend-host': 'h1' } },
    };
    const asked = request('chat', { perfMetricsInBody: true, vendor: { fireworks: { rawOutput: true } }, returnTokenIds: true });
    expect(serializeChatResult(result, asked)).toStrictEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 7,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi', refusal: null },
          logprobs: null,
          finish_reason: 'stop',
          raw_output: { completion: 'Hi' },
          token_ids: [9, 8],
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 1 } },
      perf_metrics: {
        'backend-host': 'h1',
        'prompt-tokens': 5,
        'cached-prompt-tokens': 1,
        'server-time-to-first-token': 0.25,
        'server-processing-time': 0.5,
      },
      prompt_token_ids: [1, 2, 3],
    });
    expect(Object.keys(serializeChatResult(result, request('chat')).choices[0])).toStrictEqual([
      'index',
      'message',
      'logprobs',
      'finish_reason',
    ]);
  });
});

describe('chatErrorBody', () => {
  it('is OpenAI error object', () => {
    expect(chatErrorBody(invalidRequest('top_k', 'top_k is not supported', 'unsupported_parameter'))).toStrictEqual({
      error: { message: 'top_k is not supported', type: 'invalid_request_error', param: 'top_k', code: 'unsupported_parameter' },
    });
  });
});
