/** Fireworks responses and streams -> neutral: the OpenAI-compatible reader plus Fireworks' extensions. */
import { fireworksCodec } from '../../../adapters/fireworks/kind.js';
import { readSse } from '../../helpers/read-chunks.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';

const { fromWireResult, chunkReader: fireworksChunkReader } = fireworksCodec;
const MODEL = 'accounts/fireworks/models/qwen3-8b';
const textRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('text', MODEL),
  prompt: 'Say hi',
  ...extra,
});
const chatRequest = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('chat', MODEL), messages: [], ...extra });

async function events(chunks: unknown[], request: NeutralRequest): Promise<StreamEvent[]> {
  const text = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
  async function* body(): AsyncGenerator<Uint8Array> {
    yield new TextEncoder().encode(text);
  }
  const out: StreamEvent[] = [];
  for await (const event of readSse(fireworksChunkReader(request), body())) out.push(event);
  return out;
}

const newLogprob = {
  token: 'Hi',
  logprob: -0.1,
  sampling_logprob: -0.2,
  sampling_mask_count: 3,
  bytes: [72, 105],
  token_id: 5,
  text_offset: 0,
  top_logprobs: [{ token: 'Hi', logprob: -0.1, token_id: 5, bytes: [72, 105] }],
};
const neutralLogprob = {
  token: 'Hi',
  logprob: -0.1,
  samplingLogprob: -0.2,
  samplingMaskCount: 3,
  bytes: [72, 105],
  tokenId: 5,
  textOffset: 0,
  top: [{ token: 'Hi', logprob: -0.1, tokenId: 5, bytes: [72, 105] }],
};

describe('fireworks fromWireResult', () => {
  test('completions: token ids, prompt token ids, raw output, new-format logprobs, perf_metrics', () => {
    const body = {
      id: 'cmpl-f',
      object: 'text_completion',
      created: 1,
      model: MODEL,
      choices: [
        {
          index: 0,
          text: 'Hi',
          finish_reason: 'stop',
          logprobs: { content: [newLogprob] },
          token_ids: [5],
          prompt_token_ids: [1, 2],
          raw_output: { prompt_fragments: ['Say hi'], prompt_token_ids: [1, 2], completion: 'Hi' },
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3, prompt_tokens_details: { cached_tokens: null } },
      perf_metrics: { 'prompt-tokens': 2, 'server-time-to-first-token': 0.012 },
    };
    const request = textRequest({ logprobs: { top: 1, shape: 'chat' }, returnTokenIds: true, vendor: { fireworks: { rawOutput: true } } });
    expect(fromWireResult(body, request)).toEqual({
      id: 'cmpl-f',
      model: MODEL,
      created: 1,
      choices: [
        {
          index: 0,
          text: 'Hi',
          finishReason: 'stop',
          logprobs: [neutralLogprob],
          tokenIds: [5],
          promptTokenIds: [1, 2],
          vendor: { fireworks: { rawOutput: { prompt_fragments: ['Say hi'], prompt_token_ids: [1, 2], completion: 'Hi' } } },
        },
      ],
      usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 },
      perf: { backend: { 'prompt-tokens': 2, 'server-time-to-first-token': 0.012 } },
    });
  });

  test('chat: prompt_token_ids at the top level belong to every choice; arguments sent as an object become JSON text', () => {
    const body = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: MODEL,
      prompt_token_ids: [1, 2, 3],
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            reasoning_content: 'ok',
            tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
          },
        },
      ],
    };
    expect(fromWireResult(body, chatRequest()).choices).toEqual([
      {
        index: 0,
        text: '',
        finishReason: 'tool_calls',
        reasoning: 'ok',
        toolCalls: [{ id: 'call_0', name: 'f', arguments: '{"a":1}' }],
        promptTokenIds: [1, 2, 3],
      },
    ]);
  });

  test('echo_last: the last N prompt tokens come first and are taken off the text', () => {
    const body = {
      id: 'e',
      created: 1,
      model: MODEL,
      choices: [
        {
          index: 0,
          text: ' hi there',
          finish_reason: 'length',
          logprobs: { tokens: [' hi', ' there'], token_logprobs: [-1, -2], top_logprobs: null, text_offset: [4, 7] },
        },
      ],
    };
    expect(fromWireResult(body, textRequest({ echo: { all: false, lastTokens: 1 } })).choices).toEqual([
      { index: 0, text: ' there', finishReason: 'length', promptLogprobs: [{ token: ' hi', logprob: -1, top: [], textOffset: 4 }] },
    ]);
  });
});

describe('fireworks chunk reader', () => {
  test('completions stream: token ids per delta, prompt ids once, raw output on the end, perf, usage in its own chunk', async () => {
    const head = { id: 'cmpl-s', object: 'text_completion', created: 7, model: MODEL };
    const out = await events(
      [
        {
          ...head,
          choices: [
            { index: 0, text: 'Hi', logprobs: { content: [newLogprob] }, finish_reason: null, token_ids: [5], prompt_token_ids: [1, 2] },
          ],
        },
        { ...head, choices: [{ index: 0, text: '!', logprobs: null, finish_reason: null, token_ids: [6] }] },
        {
          ...head,
          choices: [{ index: 0, text: '', finish_reason: 'stop', raw_output: { completion: 'Hi!' } }],
          perf_metrics: { 'prompt-tokens': 2 },
        },
        { ...head, choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } },
      ],
      textRequest({ logprobs: { top: 1, shape: 'chat' }, returnTokenIds: true, stream: { includeUsage: true, tokenIds: false } }),
    );
    expect(out).toEqual([
      { type: 'response-start', id: 'cmpl-s', model: MODEL, created: 7 },
      { type: 'text-delta', choice: 0, delta: 'Hi', logprobs: [neutralLogprob], tokenIds: [5], promptTokenIds: [1, 2] },
      { type: 'text-delta', choice: 0, delta: '!', tokenIds: [6] },
      { type: 'choice-end', choice: 0, finishReason: 'stop', vendor: { fireworks: { rawOutput: { completion: 'Hi!' } } } },
      { type: 'usage', usage: { promptTokens: 2, completionTokens: 2, totalTokens: 4 } },
      { type: 'perf', perf: { backend: { 'prompt-tokens': 2 } } },
    ]);
  });

  test('chat stream: delta.internal_content.token_id (include_internal_content)', async () => {
    const head = { id: 'chat-s', object: 'chat.completion.chunk', created: 8, model: MODEL };
    const out = await events(
      [
        {
          ...head,
          choices: [{ index: 0, delta: { role: 'assistant', content: 'A', internal_content: { token_id: 32 } }, finish_reason: null }],
        },
        {
          ...head,
          choices: [{ index: 0, delta: { reasoning_content: 'r', internal_content: { token_id: [7, 8] } }, finish_reason: null }],
        },
        { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'length' }] },
      ],
      chatRequest({ stream: { includeUsage: false, tokenIds: true } }),
    );
    expect(out).toEqual([
      { type: 'response-start', id: 'chat-s', model: MODEL, created: 8 },
      { type: 'text-delta', choice: 0, delta: 'A', tokenIds: [32] },
      { type: 'reasoning-delta', choice: 0, delta: 'r', tokenIds: [7, 8] },
      { type: 'choice-end', choice: 0, finishReason: 'length' },
    ]);
  });
});
