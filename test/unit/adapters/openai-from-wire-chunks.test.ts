/** OpenAI-compatible SSE streams -> StreamEvents: synthetic OpenAI streams, then real llama-server bytes. */
import fc from 'fast-check';
import { OpenAIChunkReader } from '../../../adapters/openai/from-wire-chunks.js';
import { readSse } from '../../helpers/read-chunks.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { capture, captureRequest, withCaptures } from './capture-request.js';

const chatRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'gpt-4o'),
  messages: [],
  stream: { includeUsage: true, tokenIds: false },
  ...extra,
});
const textRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('text', 'm'),
  prompt: 'Once',
  stream: { includeUsage: true, tokenIds: false },
  ...extra,
});

const encoder = new TextEncoder();

async function* bytes(...pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* pieces;
}

/** An SSE transcript of these chunk objects, ended by [DONE]. */
const sse = (...chunks: unknown[]) =>
  chunks.map((chunk) => `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';

async function events(transcript: string | Uint8Array[], request: NeutralRequest): Promise<StreamEvent[]> {
  const pieces = typeof transcript === 'string' ? [encoder.encode(transcript)] : transcript;
  const out: StreamEvent[] = [];
  for await (const event of readSse(new OpenAIChunkReader(request), bytes(...pieces))) out.push(event);
  return out;
}

const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 10, model: 'gpt-4o', system_fingerprint: 'fp_1' };
const delta = (d: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...head,
  choices: [{ index: 0, delta: d, logprobs: null, finish_reason: null, ...extra }],
});

describe('openai chunk reader', () => {
  test('text, tool calls, finish, then usage from the trailing chunk with no choices', async () => {
    const transcript = sse(
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Hel' }),
      delta({ content: 'lo' }),
      delta({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'look', arguments: '' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"q":1}' } }] }),
      delta({}, { finish_reason: 'tool_calls' }),
      {
        ...head,
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8, completion_tokens_details: { reasoning_tokens: 0 } },
      },
    );
    expect(await events(transcript, chatRequest())).toEqual([
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 10, systemFingerprint: 'fp_1' },
      { type: 'text-delta', choice: 0, delta: 'Hel' },
      { type: 'text-delta', choice: 0, delta: 'lo' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'look', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"q":1}' },
      { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8, reasoningTokens: 0 } },
    ]);
  });

  test('reasoning deltas (either key), logprobs on the delta they belong to, and a refusal at the end', async () => {
    const lp = (token: string) => ({ content: [{ token, logprob: -1, bytes: [1], top_logprobs: [] }] });
    const transcript = sse(
      delta({ reasoning_content: 'Think' }),
      delta({ reasoning: 'ing' }),
      delta({ content: 'No' }, { logprobs: lp('No') }),
      delta({ refusal: 'I cannot ' }),
      delta({ refusal: 'do that.' }),
      delta({}, { finish_reason: 'stop' }),
    );
    expect(await events(transcript, chatRequest({ logprobs: { top: 0, shape: 'chat' } }))).toEqual([
      { type: 'response-start', id: 'chatcmpl-1', model: 'gpt-4o', created: 10, systemFingerprint: 'fp_1' },
      { type: 'reasoning-delta', choice: 0, delta: 'Think' },
      { type: 'reasoning-delta', choice: 0, delta: 'ing' },
      { type: 'text-delta', choice: 0, delta: 'No', logprobs: [{ token: 'No', logprob: -1, bytes: [1], top: [] }] },
      { type: 'choice-end', choice: 0, finishReason: 'stop', refusal: 'I cannot do that.' },
    ]);
  });

  test('an error frame mid-stream ends the stream with an error event', async () => {
    const transcript = sse(
      delta({ content: 'a' }),
      { error: { code: 500, message: 'slot crashed', type: 'server_error' } },
      delta({ content: 'never' }),
    );
    const out = await events(transcript, chatRequest());
    expect(out.map((event) => event.type)).toEqual(['response-start', 'text-delta', 'error']);
    expect(out[2]).toMatchObject({
      error: { status: 502, type: 'upstream_error', message: 'The upstream backend answered with an error: slot crashed' },
    });
  });

  test('an `event: error` frame, before anything else', async () => {
    const out = await events('event: error\ndata: {"message":"rate limited","type":"rate_limit_error","code":429}\n\n', chatRequest());
    expect(out).toEqual([
      { type: 'error', error: expect.objectContaining({ status: 429, type: 'rate_limit_error', message: 'rate limited' }) },
    ]);
  });

  test('a stream that ends before its finish reason, an empty stream, and data that is not JSON are errors', async () => {
    expect((await events('data: ' + JSON.stringify(delta({ content: 'a' })) + '\n\n', chatRequest())).at(-1)).toMatchObject({
      type: 'error',
      error: { status: 502, code: 'upstream_stream_truncated', message: 'The upstream stream ended before choice 0 finished.' },
    });
    expect(await events('', chatRequest())).toEqual([
      { type: 'error', error: expect.objectContaining({ message: 'The upstream stream ended without sending any chunk.' }) },
    ]);
    expect(await events('data: {oops\n\n', chatRequest())).toEqual([
      { type: 'error', error: expect.objectContaining({ code: 'upstream_bad_response' }) },
    ]);
  });

  test('completions with echo: the echoed prompt is a text-delta marked echo', async () => {
    const chunk = (text: string, finish: string | null = null) => ({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 5,
      model: 'm',
      choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
    });
    const out = await events(
      sse(chunk('Once upon'), chunk(' a'), chunk('', 'length')),
      textRequest({ prompt: 'Once up', echo: { all: true } }),
    );
    expect(out).toEqual([
      { type: 'response-start', id: 'cmpl-1', model: 'm', created: 5 },
      { type: 'text-delta', choice: 0, delta: 'Once up', echo: true },
      { type: 'text-delta', choice: 0, delta: 'on' },
      { type: 'text-delta', choice: 0, delta: ' a' },
      { type: 'choice-end', choice: 0, finishReason: 'length' },
    ]);
  });
});

withCaptures('openai chunk reader on real llama-server streams', () => {
  const replay = (name: string) => events(capture(`${name}.response.sse`), captureRequest(name));
  const textOf = (out: StreamEvent[], choice = 0) =>
    out
      .filter((e): e is Extract<StreamEvent, { type: 'text-delta' }> => e.type === 'text-delta' && e.choice === choice)
      .map((e) => e.delta)
      .join('');

  test('chat_stream_usage: usage from the chunk with empty choices, timings as perf', async () => {
    const out = await replay('chat_stream_usage');
    expect(out[0]).toEqual({
      type: 'response-start',
      id: 'chatcmpl-096fxoNEX95PWIK26F31dlTzYXF0zbmM',
      model: 'stories260K',
      created: 1795956883,
      systemFingerprint: 'b0-de3ff815',
    });
    expect(out.slice(-3)).toEqual([
      { type: 'choice-end', choice: 0, finishReason: 'length' },
      { type: 'usage', usage: { promptTokens: 50, completionTokens: 16, totalTokens: 66, cachedPromptTokens: 49 } },
      { type: 'perf', perf: { prefillTime: 0.498 / 1000, generationTime: 4.162 / 1000 } },
    ]);
    expect(textOf(out).length).toBeGreaterThan(0);
  });

  test('chat_stream_no_usage: no usage without include_usage (llama.cpp sends none)', async () => {
    const out = await replay('chat_stream_no_usage');
    expect(out.map((e) => e.type)).toEqual([
      'response-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-delta',
      'choice-end',
      'perf',
    ]);
    expect(textOf(out)).toBe('"Here');
  });

  test('chat_stream_logprobs and cmpl_stream_logprobs2: one logprob entry per delta, ids kept', async () => {
    for (const name of ['chat_stream_logprobs', 'cmpl_stream_logprobs2']) {
      const deltas = (await replay(name)).filter((e): e is Extract<StreamEvent, { type: 'text-delta' }> => e.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(0);
      for (const event of deltas) {
        expect(event.logprobs?.map((entry) => entry.token).join('')).toBe(event.delta);
        expect(typeof event.logprobs?.[0].tokenId).toBe('number');
      }
    }
  });

  test('cmpl_stream_usage and include_usage false: usage rides the finish chunk (llama.cpp)', async () => {
    expect((await replay('cmpl_stream_usage')).filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 16, totalTokens: 21, cachedPromptTokens: 4 } },
    ]);
    expect((await replay('cmpl_stream_include_usage_false')).filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 4, totalTokens: 9, cachedPromptTokens: 4 } },
    ]);
  });

  test('cmpl_n2_stream: interleaved choices, each ended; their usages added up once at the end', async () => {
    const out = await replay('cmpl_n2_stream');
    expect(out.filter((e) => e.type === 'choice-end')).toEqual([
      { type: 'choice-end', choice: 1, finishReason: 'length' },
      { type: 'choice-end', choice: 0, finishReason: 'length' },
    ]);
    expect(textOf(out, 0)).toBe(', there was a');
    expect(out.filter((e) => e.type === 'usage')).toEqual([
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 8, totalTokens: 18, cachedPromptTokens: 8 } },
    ]);
  });

  test('the same events however the bytes are split', async () => {
    const raw = encoder.encode(capture('chat_stream_logprobs.response.sse'));
    const request = captureRequest('chat_stream_logprobs');
    const expected = await events([raw], request);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: raw.length }), { maxLength: 30 }), async (cuts) => {
        const points = [...new Set([0, ...cuts, raw.length])].sort((a, b) => a - b);
        const pieces = points.slice(1).map((end, i) => raw.slice(points[i], end));
        expect(await events(pieces, request)).toEqual(expected);
      }),
      { numRuns: 50 },
    );
  });
});
