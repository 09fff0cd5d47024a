/** NeutralRequest -> Fireworks bodies, completions and chat: a small request in, the exact body out. */
import { toWireBody } from '../../../adapters/fireworks/to-wire-body.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { plannedWire } from '../../helpers/planned-wire.js';

/** As a caller's request reaches the wire: planned for a fireworks backend, then built. */
let planned: Awaited<ReturnType<typeof plannedWire>>;
beforeAll(async () => {
  planned = await plannedWire('fireworks');
});

const MODEL = 'accounts/fireworks/models/qwen3-8b';
const text = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({ ...emptyRequest('text', MODEL), prompt: 'Once', ...extra });
const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', MODEL),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

function paramOfRejection(request: NeutralRequest): string | null {
  try {
    planned(request);
  } catch (error) {
    if (error instanceof ProxyError) return error.param;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('fireworks toWireBody: completions', () => {
  test('the smallest request', () => {
    expect(toWireBody(text())).toEqual({ model: MODEL, prompt: 'Once' });
  });

  test('every sampling extension, limits and the request-level extras', () => {
    const request = text({
      prompt: ['a', 'b'],
      images: ['data:image/png;base64,AAA'],
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
      limits: { maxTokens: 32, stop: ['\n\n'], ignoreEos: true, onContextOverflow: 'error' },
      choices: 3,
      returnTokenIds: true,
      vendor: { fireworks: { rawOutput: true } },
      perfMetricsInBody: true,
      samplingMask: 'count',
      promptCacheKey: 'pk',
      promptCacheIsolationKey: 'iso',
      user: 'u',
      metadata: { run: 1 },
      serviceTier: 'priority',
      prediction: [1, 2, 3],
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      prompt: ['a', 'b'],
      images: ['data:image/png;base64,AAA'],
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      min_p: 0.05,
      typical_p: 0.95,
      frequency_penalty: 0.1,
      presence_penalty: 0.2,
      repetition_penalty: 1.1,
      mirostat_target: 5,
      mirostat_lr: 0.1,
      seed: 42,
      logit_bias: { '13': 5 },
      n: 3,
      stop: ['\n\n'],
      max_tokens: 32,
      ignore_eos: true,
      context_length_exceeded_behavior: 'error',
      return_token_ids: true,
      raw_output: true,
      perf_metrics_in_response: true,
      sampling_mask: 'count',
      prompt_cache_key: 'pk',
      prompt_cache_isolation_key: 'iso',
      user: 'u',
      metadata: { run: 1 },
      service_tier: 'priority',
      speculation: [1, 2, 3],
    });
  });

  test('logprobs in the caller shape: legacy integer, or true + top_logprobs', () => {
    expect(toWireBody(text({ logprobs: { top: 3, shape: 'legacy' } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 3 });
    expect(toWireBody(text({ logprobs: { top: 2, shape: 'chat' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      logprobs: true,
      top_logprobs: 2,
    });
  });

  test('echo, echo_last; echo_last without logprobs asks for logprobs 0 to find where the echo ends', () => {
    expect(toWireBody(text({ echo: { all: true } }))).toEqual({ model: MODEL, prompt: 'Once', echo: true });
    expect(toWireBody(text({ echo: { all: false, lastTokens: 2 } }))).toEqual({ model: MODEL, prompt: 'Once', logprobs: 0, echo_last: 2 });
    expect(toWireBody(text({ echo: { all: false, lastTokens: 2 }, logprobs: { top: 1, shape: 'legacy' } }))).toEqual({
      model: MODEL,
      prompt: 'Once',
      logprobs: 1,
      echo_last: 2,
    });
  });

  test('response formats, grammar included', () => {
    const format = (responseFormat: NeutralRequest['responseFormat']) => toWireBody(text({ responseFormat })).response_format;
    expect(format({ type: 'json_object', schema: { type: 'object' } })).toEqual({ type: 'json_object', schema: { type: 'object' } });
    expect(format({ type: 'json_schema', schema: { type: 'object' }, strict: true })).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' }, strict: true },
    });
    expect(format({ type: 'grammar', grammar: 'root ::= "yes"' })).toEqual({ type: 'grammar', grammar: 'root ::= "yes"' });
  });

  test('reasoning: a named effort, an integer budget, a budget with an effort or an end text, history', () => {
    const reasoning = (value: NeutralRequest['reasoning']) => {
      const { model: _model, prompt: _prompt, ...rest } = toWireBody(text({ reasoning: value }));
      return rest;
    };
    expect(reasoning({ effort: 'high' })).toEqual({ reasoning_effort: 'high' });
    expect(reasoning({ effort: 'none' })).toEqual({ reasoning_effort: 'none' });
    expect(reasoning({ budgetTokens: 2048 })).toEqual({ reasoning_effort: 2048 });
    expect(reasoning({ effort: 'low', budgetTokens: 2048 })).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048, effort: 'low' } });
    expect(reasoning({ budgetTokens: 2048, budgetEndText: 'Enough.', history: 'preserved' })).toEqual({
      thinking: { type: 'enabled', budget_tokens: 2048, budget_end_str: 'Enough.' },
      reasoning_history: 'preserved',
    });
  });

  test('a stream asks for usage, and for internal_content when token ids are streamed; never buffer_*', () => {
    const request = text({ stream: { includeUsage: false, tokenIds: true, coalesce: { tokens: 8, mode: 'any' } } });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      prompt: 'Once',
      stream: true,
      stream_options: { include_usage: true, include_internal_content: true },
    });
  });

  test('tools, store and relayed chat fields are rejected on completions', () => {
    expect(paramOfRejection(text({ tools: [{ name: 'f' }], origins: { tools: 'tools' } }))).toBe('tools');
    expect(paramOfRejection(text({ store: true, origins: { store: 'store' } }))).toBe('store');
    expect(paramOfRejection(text({ passthrough: { prompt_truncate_len: 5 } }))).toBe('prompt_truncate_len');
  });
});

describe('fireworks toWireBody: chat', () => {
  test('messages keep reasoning_content; tools; Fireworks extensions; relayed fields', () => {
    const request = chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'video', url: 'https://x/v.mp4', extra: { video_url: { max_frames: 8 } } },
          ],
        },
        { role: 'assistant', content: 'Done.', reasoning: 'thought' },
      ],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      toolChoice: 'auto',
      sampling: { topK: 20 },
      logprobs: { top: 2, shape: 'legacy' },
      limits: { maxTokens: 10, stop: [], onContextOverflow: 'truncate' },
      reasoning: { effort: 'medium', history: 'interleaved' },
      passthrough: { prompt_truncate_len: 1000, safe_tokenization: true },
      stream: { includeUsage: true, tokenIds: false },
    });
    expect(toWireBody(request)).toEqual({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'video_url', video_url: { url: 'https://x/v.mp4', max_frames: 8 } },
          ],
        },
        { role: 'assistant', content: 'Done.', reasoning_content: 'thought' },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
      top_k: 20,
      logprobs: true,
      top_logprobs: 2,
      max_tokens: 10,
      reasoning_effort: 'medium',
      reasoning_history: 'interleaved',
      prompt_truncate_len: 1000,
      safe_tokenization: true,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test('audio and file parts, top-level images and OpenAI-only relayed fields are rejected', () => {
    expect(paramOfRejection(chat({ messages: [{ role: 'user', content: [{ type: 'audio', data: 'A', format: 'wav' }] }] }))).toBe(
      'messages[0].content[0].type',
    );
    expect(paramOfRejection(chat({ images: ['data:x'], origins: { images: 'images' } }))).toBe('images');
    expect(paramOfRejection(chat({ passthrough: { verbosity: 'low' } }))).toBe('verbosity');
  });
});
