/** StreamEvents -> `text_completion` chunks: a short event list in, the exact chunks out. */
import { describe, expect, it } from '@jest/globals';
import { CompletionStreamSerializer } from '../../../../src/dialects/fireworks-completions/serialize-stream.js';
import { serializeEvents } from '../../../../src/dialects/stream-serializer.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../../../src/model/request.js';
import type { StreamEvent } from '../../../../src/model/stream-event.js';
import { collect, request, source, start, token } from './helpers.js';

const head = { id: 'id-1', object: 'text_completion', created: 7, model: 'm' };
/** Fireworks' default: usage on (the request side sets `includeUsage: true` unless the caller opts out). */
const streamed = (overrides: Partial<NeutralRequest> = {}) =>
  request('text', { prompt: 'Once upon', stream: { includeUsage: true, tokenIds: false }, ...overrides });
const run = (events: StreamEvent[], req: NeutralRequest) => collect(serializeEvents(new CompletionStreamSerializer(req), source(events)));
const usage = { promptTokens: 2, completionTokens: 2, totalTokens: 4 };
const text = (index: number, value: string) => ({ index, text: value, logprobs: null, finish_reason: null });

describe('CompletionStreamSerializer', () => {
  it('default: text chunks, a finish chunk with empty text, then a separate usage chunk with choices []', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a' },
        { type: 'text-delta', choice: 0, delta: ' time' },
        { type: 'choice-end', choice: 0, finishReason: 'length' },
        { type: 'usage', usage: { ...usage, cachedPromptTokens: 1 } },
      ],
      streamed(),
    );
    expect(chunks).toStrictEqual([
      { ...head, choices: [text(0, ' a')] },
      { ...head, choices: [text(0, ' time')] },
      { ...head, choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'length' }] },
      {
        ...head,
        choices: [],
        usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4, prompt_tokens_details: { cached_tokens: 1 } },
      },
    ]);
  });

  it('usage events are summed (fan-out parts each report theirs)', async () => {
    const chunks = await run(
      [start, { type: 'choice-end', choice: 0, finishReason: 'stop' }, { type: 'usage', usage }, { type: 'usage', usage }],
      streamed(),
    );
    expect(chunks[chunks.length - 1]).toStrictEqual({
      ...head,
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 4, total_tokens: 8 },
    });
  });

  it('include_usage false: no usage chunk', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
        { type: 'usage', usage },
      ],
      streamed({ stream: { includeUsage: false, tokenIds: false } }),
    );
    expect(chunks).toStrictEqual([
      { ...head, choices: [text(0, ' a')] },
      { ...head, choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'stop' }] },
    ]);
  });

  it('n=3 interleaved: a finish chunk per choice', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 2, delta: 'c' },
        { type: 'text-delta', choice: 0, delta: 'a' },
        { type: 'text-delta', choice: 1, delta: 'b' },
        { type: 'choice-end', choice: 1, finishReason: 'stop' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
        { type: 'choice-end', choice: 2, finishReason: 'length' },
      ],
      streamed({ choices: 3, stream: { includeUsage: false, tokenIds: false } }),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      text(2, 'c'),
      text(0, 'a'),
      text(1, 'b'),
      { index: 1, text: '', logprobs: null, finish_reason: 'stop' },
      { index: 0, text: '', logprobs: null, finish_reason: 'stop' },
      { index: 2, text: '', logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('legacy logprobs on each chunk, text_offset continuing per choice; finish_reason survives', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a', logprobs: [token(' a', -0.1, [[' the', -0.05]])] },
        { type: 'text-delta', choice: 1, delta: 'X', logprobs: [token('X', -1)] },
        { type: 'text-delta', choice: 0, delta: ' time', logprobs: [token(' time', -0.2, [[' time', -0.2]])] },
        { type: 'choice-end', choice: 0, finishReason: 'length' },
      ],
      streamed({ choices: 2, logprobs: { top: 1, shape: 'legacy' }, stream: { includeUsage: false, tokenIds: false } }),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      {
        index: 0,
        text: ' a',
        logprobs: { tokens: [' a'], token_logprobs: [-0.1], top_logprobs: [{ ' the': -0.05, ' a': -0.1 }], text_offset: [0] },
        finish_reason: null,
      },
      {
        index: 1,
        text: 'X',
        logprobs: { tokens: ['X'], token_logprobs: [-1], top_logprobs: [{ X: -1 }], text_offset: [0] },
        finish_reason: null,
      },
      {
        index: 0,
        text: ' time',
        logprobs: { tokens: [' time'], token_logprobs: [-0.2], top_logprobs: [{ ' time': -0.2 }], text_offset: [2] },
        finish_reason: null,
      },
      { index: 0, text: '', logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('chat-shaped logprobs on each chunk in Fireworks new format', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a', logprobs: [token(' a', -0.1, [], { tokenId: 4 })] },
        { type: 'text-delta', choice: 0, delta: '!', logprobs: [token('!', -0.3, [], { tokenId: 5 })] },
      ],
      streamed({ logprobs: { top: 0, shape: 'chat' } }),
    );
    expect(chunks.map((chunk) => (chunk.choices as { logprobs: unknown }[])[0].logprobs)).toStrictEqual([
      { content: [{ token: ' a', logprob: -0.1, bytes: [32, 97], top_logprobs: [], token_id: 4, sampling_logprob: null, text_offset: 0 }] },
      { content: [{ token: '!', logprob: -0.3, bytes: [33], top_logprobs: [], token_id: 5, sampling_logprob: null, text_offset: 2 }] },
    ]);
  });

  it('echo from the backend: echoed deltas first, offsets from the prompt start, unscored first token null', async () => {
    const chunks = await run(
      [
        start,
        {
          type: 'text-delta',
          choice: 0,
          delta: 'Once upon',
          echo: true,
          logprobs: [token('Once', 0, [], { noLogprob: true }), token(' upon', -2.5)],
        },
        { type: 'text-delta', choice: 0, delta: ' a', logprobs: [token(' a', -0.1)] },
      ],
      streamed({ echo: { all: true }, logprobs: { top: 0, shape: 'legacy' } }),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      {
        index: 0,
        text: 'Once upon',
        logprobs: { tokens: ['Once', ' upon'], token_logprobs: [null, -2.5], top_logprobs: [null, { ' upon': -2.5 }], text_offset: [0, 4] },
        finish_reason: null,
      },
      {
        index: 0,
        text: ' a',
        logprobs: { tokens: [' a'], token_logprobs: [-0.1], top_logprobs: [{ ' a': -0.1 }], text_offset: [9] },
        finish_reason: null,
      },
    ]);
  });

  it('echo a backend did not do: the string prompt goes first; echo_last without prompt tokens is an error', async () => {
    const events: StreamEvent[] = [start, { type: 'text-delta', choice: 0, delta: ' a' }];
    expect((await run(events, streamed({ echo: { all: true } }))).map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      text(0, 'Once upon'),
      text(0, ' a'),
    ]);
    expect(await run(events, streamed({ echo: { all: false, lastTokens: 2 } }))).toStrictEqual([
      {
        error: {
          message: 'The backend returned no prompt tokens to echo for this prompt.',
          type: 'upstream_error',
          param: 'echo_last',
          code: 'echo_unavailable',
        },
      },
    ]);
  });

  it('include_internal_content / return_token_ids: token_ids on the chunk choice', async () => {
    const chunks = await run(
      [start, { type: 'text-delta', choice: 0, delta: ' a', tokenIds: [4] }],
      streamed({ stream: { includeUsage: true, tokenIds: true } }),
    );
    expect(chunks).toStrictEqual([{ ...head, choices: [{ index: 0, text: ' a', logprobs: null, finish_reason: null, token_ids: [4] }] }]);
  });

  it('return_token_ids: prompt_token_ids on the first chunk; raw_output on the finish chunk when asked', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a', tokenIds: [4], promptTokenIds: [1, 2] },
        { type: 'choice-end', choice: 0, finishReason: 'stop', vendor: { fireworks: { rawOutput: { completion: ' a' } } } },
      ],
      streamed({ returnTokenIds: true, vendor: { fireworks: { rawOutput: true } } }),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      { index: 0, text: ' a', logprobs: null, finish_reason: null, prompt_token_ids: [1, 2], token_ids: [4] },
      { index: 0, text: '', logprobs: null, finish_reason: 'stop', raw_output: { completion: ' a' } },
    ]);
  });

  it('perf_metrics in the final finish chunk when asked', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a' },
        { type: 'perf', perf: { timeToFirstToken: 0.1, backend: { deployment: 'd1' } } },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
        { type: 'usage', usage },
      ],
      streamed({ perfMetricsInBody: true }),
    );
    expect(chunks.slice(1)).toStrictEqual([
      {
        ...head,
        choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'stop' }],
        perf_metrics: { deployment: 'd1', 'server-time-to-first-token': 0.1 },
      },
      { ...head, choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } },
    ]);
  });

  it('an error event mid-stream yields one error chunk and ends', async () => {
    const error = new ProxyError({ status: 504, type: 'timeout_error', code: 'idle_timeout', message: 'The backend went quiet.' });
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: ' a' },
        { type: 'error', error },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ],
      streamed(),
    );
    expect(chunks).toStrictEqual([
      { ...head, choices: [text(0, ' a')] },
      { error: { message: 'The backend went quiet.', type: 'timeout_error', param: null, code: 'idle_timeout' } },
    ]);
  });
});
