/** `kind: vllm`: its capabilities, and vLLM-shaped answers (token ids, `reasoning`) read back through a mock upstream. */
import { choicesAreNative, supports } from '../../../src/backend/capabilities.js';
import { handlingOf } from '../../../src/backend/field-support.js';
import { unsupportedFields } from '../../helpers/unsupported-fields.js';
import { createVllmAdapter, vllmCapabilities } from '../../../adapters/vllm/kind.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const context = () => ({ signal: new AbortController().signal, requestId: 'req-1' });

describe('vllm capabilities', () => {
  test('defaults: both endpoints, what vLLM declares, its three efforts', () => {
    const capabilities = vllmCapabilities({ url: 'http://gpu:8000/v1' });
    expect(capabilities.speaks).toEqual(['completions', 'chat']);
    expect(unsupportedFields(capabilities)).toEqual([
      'cacheControl',
      'contextManagement',
      'echo.lastTokens',
      'images',
      'metadata',
      'prediction',
      'promptCacheKey',
      'rawOutput',
      'reasoning.budgetEndText',
      'reasoning.budgetTokens',
      'reasoning.history',
      'sampling.mirostat',
      'sampling.typicalP',
      'samplingMask',
      'serviceTier',
      'store',
      'toolError',
    ]);
    expect(handlingOf(capabilities.fields, 'prompt:batch', 'text').kind).toBe('native');
    expect(capabilities.maxTopLogprobs).toBe(20);
    expect(choicesAreNative(capabilities)).toBe(true);
    expect(capabilities.efforts).toEqual(new Set(['low', 'medium', 'high']));
    expect(capabilities.relayed).toEqual({ chat: new Set(), text: new Set() });
  });

  test('chat only: no echo, token-id prompts or batches', () => {
    const capabilities = vllmCapabilities({ url: 'http://gpu:8000/v1', speaks: ['chat'] });
    expect((['echo', 'prompt:tokenIds'] as const).filter((field) => supports(capabilities, field))).toEqual([]);
    expect(handlingOf(capabilities.fields, 'prompt:batch', 'chat').kind).toBe('emulate');
  });
});

describe('vllm adapter against a mock upstream', () => {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  test('completions with return_token_ids: token ids and the prompt ids come back per choice', async () => {
    upstream.reply({
      json: {
        id: 'cmpl-1',
        object: 'text_completion',
        created: 7,
        model: 'qwen',
        choices: [
          {
            index: 0,
            text: ' there',
            logprobs: null,
            finish_reason: 'length',
            stop_reason: null,
            token_ids: [383],
            prompt_token_ids: [1, 403],
          },
        ],
        usage: { prompt_tokens: 2, completion_tokens: 1, total_tokens: 3, prompt_tokens_details: null },
      },
    });
    const adapter = createVllmAdapter({ kind: 'vllm', url: upstream.url }, { name: 'gpu' });
    const request: NeutralRequest = { ...emptyRequest('text', 'qwen'), prompt: [1, 403], returnTokenIds: true };
    try {
      expect(await adapter.complete(request, context())).toEqual({
        id: 'cmpl-1',
        model: 'qwen',
        created: 7,
        choices: [{ index: 0, text: ' there', finishReason: 'length', tokenIds: [383], promptTokenIds: [1, 403] }],
        usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 },
      });
      expect(upstream.requests.at(-1)).toMatchObject({
        path: '/v1/completions',
        body: { model: 'qwen', prompt: [1, 403], return_token_ids: true },
      });
    } finally {
      await adapter.close?.();
    }
  });

  test("a chat stream: vLLM's `reasoning` deltas, prompt ids on the first chunk, usage in the trailing chunk", async () => {
    const head = { id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 8, model: 'qwen' };
    const frames = [
      {
        ...head,
        prompt_token_ids: [5, 6],
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
      },
      { ...head, choices: [{ index: 0, delta: { reasoning: 'hmm' }, logprobs: null, finish_reason: null, token_ids: [9] }] },
      { ...head, choices: [{ index: 0, delta: { content: 'Hi' }, logprobs: null, finish_reason: 'stop', token_ids: [10] }] },
      { ...head, choices: [], usage: { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 } },
    ];
    upstream.reply({ sse: frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join('') + 'data: [DONE]\n\n' });
    const adapter = createVllmAdapter({ kind: 'vllm', url: upstream.url });
    const request: NeutralRequest = {
      ...emptyRequest('chat', 'qwen'),
      messages: [{ role: 'user', content: 'Hi' }],
      stream: { includeUsage: true, tokenIds: true },
    };
    const out: StreamEvent[] = [];
    try {
      for await (const event of eachEvent(adapter.stream(request, context()))) out.push(event);
    } finally {
      await adapter.close?.();
    }
    expect(out).toEqual([
      { type: 'response-start', id: 'chatcmpl-2', model: 'qwen', created: 8 },
      { type: 'text-delta', choice: 0, delta: '', promptTokenIds: [5, 6] },
      { type: 'reasoning-delta', choice: 0, delta: 'hmm', tokenIds: [9] },
      { type: 'text-delta', choice: 0, delta: 'Hi', tokenIds: [10] },
      { type: 'choice-end', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 2, completionTokens: 2, totalTokens: 4 } },
    ]);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: '/v1/chat/completions',
      body: {
        model: 'qwen',
        messages: [{ role: 'user', content: 'Hi' }],
        return_token_ids: true,
        stream: true,
        stream_options: { include_usage: true },
      },
    });
  });
});
