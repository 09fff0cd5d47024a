/** NeutralResult -> Fireworks `text_completion`: a small result in, the exact wire object out. */
import { describe, expect, it } from '@jest/globals';
import { serializeCompletionResult } from '../../../../src/dialects/fireworks-completions/serialize-result.js';
import { completionErrorBody } from '../../../../src/dialects/fireworks-completions/error-body.js';
import { invalidRequest } from '../../../../src/errors/proxy-error.js';
import type { NeutralResult } from '../../../../src/model/result.js';
import { request, token } from './helpers.js';

const base = { id: 'cmpl-1', model: 'm', created: 7 };
const usage = { promptTokens: 2, completionTokens: 2, totalTokens: 4 };
/** "Once upon" + " a time": the first prompt token has no logprob (nothing precedes it). */
const promptTokens = [token('Once', 0, [], { noLogprob: true }), token(' upon', -2.5, [[' time', -0.5]])];
const generated = [token(' a', -0.1, [[' a', -0.1]]), token(' time', -0.2, [[' time', -0.2]])];

describe('serializeCompletionResult', () => {
  it('plain text with usage (no completion details in Fireworks UsageInfo)', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: ' a time', finishReason: 'length' }],
      usage: { ...usage, cachedPromptTokens: 1, reasoningTokens: 0 },
    };
    expect(serializeCompletionResult(result, request('text', { prompt: 'Once upon' }))).toStrictEqual({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 7,
      model: 'm',
      choices: [{ index: 0, text: ' a time', logprobs: null, finish_reason: 'length' }],
      usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4, prompt_tokens_details: { cached_tokens: 1 } },
    });
  });

  it('n=3 on one prompt', () => {
    const result: NeutralResult = {
      ...base,
      choices: [0, 1, 2].map((index) => ({ index, text: `t${index}`, finishReason: 'stop' as const })),
    };
    expect(serializeCompletionResult(result, request('text', { prompt: 'p', choices: 3 })).choices).toStrictEqual([
      { index: 0, text: 't0', logprobs: null, finish_reason: 'stop' },
      { index: 1, text: 't1', logprobs: null, finish_reason: 'stop' },
      { index: 2, text: 't2', logprobs: null, finish_reason: 'stop' },
    ]);
  });

  it('legacy logprobs: top maps hold up to N+1 entries including the sampled token', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: ' a time',
          finishReason: 'length',
          logprobs: [token(' a', -1, [[' the', -0.5]]), token(' time', -0.2, [[' time', -0.2]], { tokenId: 9 })],
        },
      ],
    };
    expect(
      serializeCompletionResult(result, request('text', { prompt: 'Once upon', logprobs: { top: 1, shape: 'legacy' } })).choices[0]
        .logprobs,
    ).toStrictEqual({
      tokens: [' a', ' time'],
      token_logprobs: [-1, -0.2],
      top_logprobs: [{ ' the': -0.5, ' a': -1 }, { ' time': -0.2 }],
      text_offset: [0, 2],
    });
  });

  it('chat-shaped logprobs (`logprobs: true`): Fireworks new format with token_id, sampling_logprob, text_offset', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: ' a time',
          finishReason: 'length',
          logprobs: [
            token(' a', -0.1, [], { tokenId: 4, top: [{ token: ' a', logprob: -0.1, tokenId: 4 }] }),
            token(' time', -0.2, [], { tokenId: 5, samplingLogprob: -0.15, top: [{ token: ' time', logprob: -0.2, tokenId: 5 }] }),
          ],
        },
      ],
    };
    expect(
      serializeCompletionResult(result, request('text', { prompt: 'Once upon', logprobs: { top: 1, shape: 'chat' } })).choices[0].logprobs,
    ).toStrictEqual({
      content: [
        {
          token: ' a',
          logprob: -0.1,
          bytes: [32, 97],
          top_logprobs: [{ token: ' a', logprob: -0.1, bytes: [32, 97], token_id: 4 }],
          token_id: 4,
          sampling_logprob: null,
          text_offset: 0,
        },
        {
          token: ' time',
          logprob: -0.2,
          bytes: [32, 116, 105, 109, 101],
          top_logprobs: [{ token: ' time', logprob: -0.2, bytes: [32, 116, 105, 109, 101], token_id: 5 }],
          token_id: 5,
          sampling_logprob: -0.15,
          text_offset: 2,
        },
      ],
    });
  });

  it('echo with legacy logprobs: the prompt comes first, text_offset counts from the prompt start, first prompt token null', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: ' a time', finishReason: 'length', logprobs: generated, promptLogprobs: promptTokens }],
    };
    const asked = request('text', { prompt: 'Once upon', echo: { all: true }, logprobs: { top: 1, shape: 'legacy' } });
    expect(serializeCompletionResult(result, asked).choices).toStrictEqual([
      {
        index: 0,
        text: 'Once upon a time',
        logprobs: {
          tokens: ['Once', ' upon', ' a', ' time'],
          token_logprobs: [null, -2.5, -0.1, -0.2],
          top_logprobs: [null, { ' time': -0.5, ' upon': -2.5 }, { ' a': -0.1 }, { ' time': -0.2 }],
          text_offset: [0, 4, 9, 11],
        },
        finish_reason: 'length',
      },
    ]);
  });

  it('echo_last: the last N prompt tokens, offsets from the start of the returned text', () => {
    const result: NeutralResult = {
      ...base,
      choices: [{ index: 0, text: ' a time', finishReason: 'length', logprobs: generated, promptLogprobs: promptTokens }],
    };
    const asked = request('text', { prompt: 'Once upon', echo: { all: false, lastTokens: 1 }, logprobs: { top: 0, shape: 'legacy' } });
    expect(serializeCompletionResult(result, asked).choices[0]).toStrictEqual({
      index: 0,
      text: ' upon a time',
      logprobs: {
        tokens: [' upon', ' a', ' time'],
        token_logprobs: [-2.5, -0.1, -0.2],
        top_logprobs: [{ ' upon': -2.5 }, { ' a': -0.1 }, { ' time': -0.2 }],
        text_offset: [0, 5, 7],
      },
      finish_reason: 'length',
    });
  });

  it('echo without logprobs repeats the prompt string of each choice (n per prompt, prompt by prompt)', () => {
    const result: NeutralResult = {
      ...base,
      choices: [0, 1, 2, 3].map((index) => ({ index, text: `+${index}`, finishReason: 'stop' as const })),
    };
    const asked = request('text', { prompt: ['A', 'B'], choices: 2, echo: { all: true } });
    expect(serializeCompletionResult(result, asked).choices.map((choice) => choice.text)).toStrictEqual(['A+0', 'A+1', 'B+2', 'B+3']);
  });

  it('echo_last of a token-id prompt uses the text the backend decoded (echoText)', () => {
    const result: NeutralResult = { ...base, choices: [{ index: 0, text: ' a', finishReason: 'stop', echoText: ' upon' }] };
    expect(
      serializeCompletionResult(result, request('text', { prompt: [1, 2, 3], echo: { all: false, lastTokens: 1 } })).choices[0].text,
    ).toBe(' upon a');
  });

  it('echo of a token-id prompt with no prompt tokens from the backend is an error, not a silent omission', () => {
    const result: NeutralResult = { ...base, choices: [{ index: 0, text: ' a', finishReason: 'stop' }] };
    expect(() => serializeCompletionResult(result, request('text', { prompt: [1, 2, 3], echo: { all: true } }))).toThrow(
      /no prompt tokens to echo/,
    );
  });

  it('token ids, raw output and perf metrics only when asked', () => {
    const result: NeutralResult = {
      ...base,
      choices: [
        {
          index: 0,
          text: ' a',
          finishReason: 'stop',
          tokenIds: [4],
          promptTokenIds: [1, 2],
          vendor: { fireworks: { rawOutput: { completion: ' a' } } },
        },
      ],
      usage,
      perf: { timeToFirstToken: 0.1, prefillTime: 0.05, generationTime: 0.2, queueTime: 0.01 },
    };
    expect(
      serializeCompletionResult(
        result,
        request('text', { prompt: 'p', returnTokenIds: true, vendor: { fireworks: { rawOutput: true } }, perfMetricsInBody: true }),
      ),
    ).toStrictEqual({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 7,
      model: 'm',
      choices: [
        {
          index: 0,
          text: ' a',
          logprobs: null,
          finish_reason: 'stop',
          raw_output: { completion: ' a' },
          prompt_token_ids: [1, 2],
          token_ids: [4],
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 },
      perf_metrics: {
        'prompt-tokens': 2,
        'server-time-to-first-token': 0.1,
        'prefill-queue-duration': 0.01,
        'prefill-duration': 0.05,
        'generation-duration': 0.2,
      },
    });
    expect(serializeCompletionResult(result, request('text', { prompt: 'p' })).choices[0]).toStrictEqual({
      index: 0,
      text: ' a',
      logprobs: null,
      finish_reason: 'stop',
    });
  });
});

describe('completionErrorBody', () => {
  it('adds Fireworks `detail` to the OpenAI error object', () => {
    expect(completionErrorBody(invalidRequest('echo_last', 'echo_last must be at least 0'))).toStrictEqual({
      error: { message: 'echo_last must be at least 0', type: 'invalid_request_error', param: 'echo_last', code: null },
      detail: [{ loc: ['body', 'echo_last'], msg: 'echo_last must be at least 0', type: 'invalid_request_error' }],
    });
  });
});

describe('perf metrics body', () => {
  test("the backend's own server-side timings win over the proxy's measurement", async () => {
    const { perfMetricsBody } = await import('../../../../src/dialects/perf-metrics-body.js');
    expect(
      perfMetricsBody(
        { timeToFirstToken: 0.5, processingTime: 0.9, backend: { 'server-time-to-first-token': 0.12, 'backend-host': 'h1' } },
        { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
      ),
    ).toEqual({ 'prompt-tokens': 5, 'server-time-to-first-token': 0.12, 'server-processing-time': 0.9, 'backend-host': 'h1' });
  });
});
