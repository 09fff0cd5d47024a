/** StreamEvents -> `chat.completion.chunk`s: a short event list in, the exact chunks out. */
import { describe, expect, it } from '@jest/globals';
import { ChatStreamSerializer } from '../../../../src/dialects/openai-chat/serialize-stream.js';
import { serializeEvents } from '../../../../src/dialects/stream-serializer.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../../../src/model/request.js';
import type { StreamEvent } from '../../../../src/model/stream-event.js';
import { collect, request, source, start, token } from './helpers.js';

const head = { id: 'id-1', object: 'chat.completion.chunk', created: 7, model: 'm' };
const streamed = (overrides: Partial<NeutralRequest> = {}) =>
  request('chat', { stream: { includeUsage: false, tokenIds: false }, ...overrides });
const run = (events: StreamEvent[], req: NeutralRequest) => collect(serializeEvents(new ChatStreamSerializer(req), source(events)));
const role = (index: number) => ({ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null });
const usage = { promptTokens: 5, completionTokens: 2, totalTokens: 7 };

describe('ChatStreamSerializer', () => {
  it('plain text without include_usage: role chunk, deltas, finish chunk, no usage anywhere', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: 'Hel' },
        { type: 'text-delta', choice: 0, delta: 'lo' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
        { type: 'usage', usage },
      ],
      streamed(),
    );
    expect(chunks).toStrictEqual([
      { ...head, choices: [role(0)] },
      { ...head, choices: [{ index: 0, delta: { content: 'Hel' }, logprobs: null, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: { content: 'lo' }, logprobs: null, finish_reason: null }] },
      { ...head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }] },
    ]);
  });

  it('include_usage: usage null on every chunk, then choices [] with the usage last', async () => {
    const chunks = await run(
      [
        { ...start, systemFingerprint: 'fp_1' },
        { type: 'text-delta', choice: 0, delta: 'Hi' },
        { type: 'usage', usage: { ...usage, reasoningTokens: 0 } },
        { type: 'choice-end', choice: 0, finishReason: 'length' },
      ],
      streamed({ stream: { includeUsage: true, tokenIds: false } }),
    );
    const withFp = { ...head, system_fingerprint: 'fp_1' };
    expect(chunks).toStrictEqual([
      { ...withFp, choices: [role(0)], usage: null },
      { ...withFp, choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: null, finish_reason: null }], usage: null },
      { ...withFp, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'length' }], usage: null },
      {
        ...withFp,
        choices: [],
        usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, completion_tokens_details: { reasoning_tokens: 0 } },
      },
    ]);
  });

  it('n=3 interleaved: each choice gets its own role chunk and finish chunk', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 1, delta: 'b' },
        { type: 'text-delta', choice: 0, delta: 'a' },
        { type: 'choice-end', choice: 1, finishReason: 'stop' },
        { type: 'text-delta', choice: 2, delta: 'c' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
        { type: 'choice-end', choice: 2, finishReason: 'length' },
      ],
      streamed({ choices: 3 }),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      role(1),
      { index: 1, delta: { content: 'b' }, logprobs: null, finish_reason: null },
      role(0),
      { index: 0, delta: { content: 'a' }, logprobs: null, finish_reason: null },
      { index: 1, delta: {}, logprobs: null, finish_reason: 'stop' },
      role(2),
      { index: 2, delta: { content: 'c' }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' },
      { index: 2, delta: {}, logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('tool calls: id, type and name on the first delta of each call only', async () => {
    const chunks = await run(
      [
        start,
        { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' },
        { type: 'tool-call-delta', choice: 0, index: 0, name: 'get_weather', argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
        { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_2', name: 'get_time', argumentsDelta: '{}' },
        { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
      ],
      streamed(),
    );
    expect(chunks.map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      role(0),
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, logprobs: null, finish_reason: null },
      { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, logprobs: null, finish_reason: null },
      {
        index: 0,
        delta: { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
  });

  it('legacy `functions`: function_call deltas and finish_reason function_call', async () => {
    const chunks = await run(
      [
        start,
        { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'f', argumentsDelta: '{' },
        { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '}' },
        { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
      ],
      streamed({ legacyFunctions: true }),
    );
    expect(chunks.slice(1).map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      { index: 0, delta: { function_call: { name: 'f', arguments: '{' } }, logprobs: null, finish_reason: null },
      { index: 0, delta: { function_call: { arguments: '}' } }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'function_call' },
    ]);
  });

  it('reasoning deltas as reasoning_content', async () => {
    const chunks = await run(
      [
        start,
        { type: 'reasoning-delta', choice: 0, delta: 'think' },
        { type: 'text-delta', choice: 0, delta: 'answer' },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ],
      streamed(),
    );
    expect(chunks.slice(1, 3).map((chunk) => (chunk.choices as { delta: unknown }[])[0].delta)).toStrictEqual([
      { reasoning_content: 'think' },
      { content: 'answer' },
    ]);
  });

  it('logprobs ride on each delta; the finish chunk keeps its finish_reason', async () => {
    const chunks = await run(
      [
        start,
        {
          type: 'text-delta',
          choice: 0,
          delta: 'Hi',
          logprobs: [
            token('Hi', -0.1, [
              ['Hi', -0.1],
              ['Yo', -3],
            ]),
          ],
        },
        { type: 'text-delta', choice: 0, delta: '!', logprobs: [token('!', -0.2)] },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ],
      streamed({ logprobs: { top: 2, shape: 'chat' } }),
    );
    expect(chunks.slice(1).map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      {
        index: 0,
        delta: { content: 'Hi' },
        logprobs: {
          content: [
            {
              token: 'Hi',
              logprob: -0.1,
              bytes: [72, 105],
              top_logprobs: [
                { token: 'Hi', logprob: -0.1, bytes: [72, 105] },
                { token: 'Yo', logprob: -3, bytes: [89, 111] },
              ],
            },
          ],
          refusal: null,
        },
        finish_reason: null,
      },
      {
        index: 0,
        delta: { content: '!' },
        logprobs: { content: [{ token: '!', logprob: -0.2, bytes: [33], top_logprobs: [] }], refusal: null },
        finish_reason: null,
      },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' },
    ]);
  });

  it('include_internal_content: delta.internal_content.token_id; return_token_ids: token_ids on the choice', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: 'Hi', tokenIds: [42] },
        { type: 'text-delta', choice: 0, delta: ' you', tokenIds: [7, 8] },
      ],
      streamed({ stream: { includeUsage: false, tokenIds: true }, returnTokenIds: true }),
    );
    expect(chunks.slice(1).map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      { index: 0, delta: { content: 'Hi', internal_content: { token_id: 42 } }, logprobs: null, finish_reason: null, token_ids: [42] },
      {
        index: 0,
        delta: { content: ' you', internal_content: { token_id: [7, 8] } },
        logprobs: null,
        finish_reason: null,
        token_ids: [7, 8],
      },
    ]);
  });

  it('a refusal goes out as a delta before the finish; raw_output and prompt_token_ids when asked', async () => {
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: '', promptTokenIds: [1, 2], tokenIds: [] },
        {
          type: 'choice-end',
          choice: 0,
          finishReason: 'stop',
          refusal: 'I cannot help with that.',
          vendor: { fireworks: { rawOutput: { completion: '' } } },
        },
      ],
      streamed({ vendor: { fireworks: { rawOutput: true } }, returnTokenIds: true }),
    );
    expect(chunks.slice(1).map((chunk) => (chunk.choices as unknown[])[0])).toStrictEqual([
      { index: 0, delta: { content: '' }, logprobs: null, finish_reason: null, prompt_token_ids: [1, 2], token_ids: [] },
      { index: 0, delta: { refusal: 'I cannot help with that.' }, logprobs: null, finish_reason: null },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'stop', raw_output: { completion: '' } },
    ]);
  });

  it('perf_metrics on the last finish chunk: the perf event when it came first, else what usage told', async () => {
    const events: StreamEvent[] = [
      start,
      { type: 'text-delta', choice: 0, delta: 'a' },
      { type: 'text-delta', choice: 1, delta: 'b' },
      { type: 'usage', usage: { ...usage, cachedPromptTokens: 2 } },
      { type: 'choice-end', choice: 0, finishReason: 'stop' },
      { type: 'perf', perf: { timeToFirstToken: 0.1, processingTime: 0.3 } },
      { type: 'choice-end', choice: 1, finishReason: 'stop' },
    ];
    const chunks = await run(events, streamed({ choices: 2, perfMetricsInBody: true }));
    const finishes = chunks.filter((chunk) => (chunk.choices as { finish_reason: unknown }[])[0]?.finish_reason);
    expect(finishes.map((chunk) => chunk.perf_metrics)).toStrictEqual([
      undefined,
      { 'prompt-tokens': 5, 'cached-prompt-tokens': 2, 'server-time-to-first-token': 0.1, 'server-processing-time': 0.3 },
    ]);
    const noPerf = await run(
      events.filter((event) => event.type !== 'perf'),
      streamed({ choices: 2, perfMetricsInBody: true }),
    );
    expect(noPerf[noPerf.length - 1].perf_metrics).toStrictEqual({ 'prompt-tokens': 5, 'cached-prompt-tokens': 2 });
  });

  it('an error event mid-stream yields one error chunk and ends (no usage chunk)', async () => {
    const error = new ProxyError({
      status: 502,
      type: 'upstream_error',
      code: 'upstream_reset',
      message: 'Upstream closed the connection.',
    });
    const chunks = await run(
      [
        start,
        { type: 'text-delta', choice: 0, delta: 'Hi' },
        { type: 'usage', usage },
        { type: 'error', error },
        { type: 'text-delta', choice: 0, delta: 'never' },
      ],
      streamed({ stream: { includeUsage: true, tokenIds: false } }),
    );
    expect(chunks.slice(2)).toStrictEqual([
      { error: { message: 'Upstream closed the connection.', type: 'upstream_error', param: null, code: 'upstream_reset' } },
    ]);
  });

  it('output before response-start is an internal error, not chunks without an id', async () => {
    const chunks = await run([{ type: 'text-delta', choice: 0, delta: 'Hi' }], streamed());
    expect(chunks).toStrictEqual([
      {
        error: {
          message: 'The stream produced output before its response-start event.',
          type: 'server_error',
          param: null,
          code: 'internal_error',
        },
      },
    ]);
  });
});
