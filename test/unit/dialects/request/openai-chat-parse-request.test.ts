/** dialects/openai-chat/parse-request.ts: chat wire body in -> exact NeutralRequest out. */
import { parseChatRequest } from '../../../../src/dialects/openai-chat/parse-request.js';
import { emptyRequest, type NeutralRequest } from '../../../../src/model/request.js';
import { paramOf } from './expect-param.js';

const hi = [{ role: 'user', content: 'Hi' }];
const base = { model: 'gpt-4o-mini', messages: hi };

/** The neutral request of `base`, plus `parts`; `origins` adds to the base ones. */
function neutral(parts: Partial<NeutralRequest> = {}): NeutralRequest {
  return {
    ...emptyRequest('chat', 'gpt-4o-mini'),
    messages: [{ role: 'user', content: 'Hi' }],
    ...parts,
    origins: { model: 'model', messages: 'messages', ...parts.origins },
  };
}

const weather = { type: 'function', function: { name: 'weather', parameters: { type: 'object' } } };

describe('parseChatRequest', () => {
  it('the smallest body', () => {
    expect(parseChatRequest(base)).toEqual(neutral());
  });

  it('what the openai SDK sends for a typical streamed call', () => {
    const body = {
      ...base,
      temperature: 0.7,
      top_p: 0.9,
      max_completion_tokens: 256,
      stop: 'END',
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      logit_bias: { '15': 2 },
      n: 2,
      user: 'u-1',
      store: false,
      metadata: { run: 'a' },
      service_tier: 'auto',
      reasoning_effort: 'minimal',
      stream: true,
      stream_options: { include_usage: true },
      logprobs: true,
      top_logprobs: 2,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
      tools: [weather],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
    };
    expect(parseChatRequest(body)).toEqual(
      neutral({
        sampling: { temperature: 0.7, topP: 0.9, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2, logitBias: { '15': 2 } },
        limits: { maxTokens: 256, stop: ['END'], onContextOverflow: 'truncate' },
        choices: 2,
        user: 'u-1',
        affinityKey: 'u-1',
        store: false,
        metadata: { run: 'a' },
        serviceTier: 'auto',
        reasoning: { effort: 'minimal', offered: true },
        stream: { includeUsage: true, tokenIds: false },
        logprobs: { top: 2, shape: 'chat' },
        responseFormat: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
        tools: [{ name: 'weather', parameters: { type: 'object' } }],
        toolChoice: { name: 'weather' },
        parallelToolCalls: false,
        origins: {
          affinityKey: 'user',
          'sampling.temperature': 'temperature',
          'sampling.topP': 'top_p',
          'limits.maxTokens': 'max_completion_tokens',
          'limits.stop': 'stop',
          'sampling.seed': 'seed',
          'sampling.presencePenalty': 'presence_penalty',
          'sampling.frequencyPenalty': 'frequency_penalty',
          'sampling.logitBias': 'logit_bias',
          choices: 'n',
          user: 'user',
          store: 'store',
          metadata: 'metadata',
          serviceTier: 'service_tier',
          'reasoning.effort': 'reasoning_effort',
          stream: 'stream',
          logprobs: 'logprobs',
          'logprobs.top': 'top_logprobs',
          responseFormat: 'response_format',
          tools: 'tools',
          toolChoice: 'tool_choice',
          parallelToolCalls: 'parallel_tool_calls',
        },
      }),
    );
  });

  it("chat streams leave usage off unless asked (OpenAI's default)", () => {
    expect(parseChatRequest({ ...base, stream: true }).stream).toEqual({ includeUsage: false, tokenIds: false });
  });

  it('Fireworks chat extensions', () => {
    const body = {
      ...base,
      top_k: 40,
      min_p: 0.1,
      typical_p: 0.9,
      repetition_penalty: 1.1,
      mirostat_target: 5,
      mirostat_lr: 0.1,
      ignore_eos: true,
      context_length_exceeded_behavior: 'error',
      prompt_cache_key: 'conv-9',
      prompt_cache_isolation_key: 'tenant-1',
      raw_output: true,
      return_token_ids: true,
      perf_metrics_in_response: true,
      sampling_mask: 'count',
      thinking: { type: 'enabled', budget_tokens: 2048, keep: 'all' },
      speculation: [1, 2],
      tool_choice: 'any',
      tools: [weather],
      prompt_truncate_len: 1500,
      safe_tokenization: true,
    };
    expect(parseChatRequest(body)).toEqual(
      neutral({
        sampling: { topK: 40, minP: 0.1, typicalP: 0.9, repetitionPenalty: 1.1, mirostat: { target: 5, learningRate: 0.1 } },
        limits: { stop: [], ignoreEos: true, onContextOverflow: 'error' },
        promptCacheKey: 'conv-9',
        affinityKey: 'conv-9',
        promptCacheIsolationKey: 'tenant-1',
        vendor: { fireworks: { rawOutput: true } },
        returnTokenIds: true,
        perfMetricsInBody: true,
        samplingMask: 'count',
        reasoning: { budgetTokens: 2048, history: 'preserved', offered: true },
        prediction: [1, 2],
        toolChoice: 'required',
        tools: [{ name: 'weather', parameters: { type: 'object' } }],
        passthrough: { prompt_truncate_len: 1500, safe_tokenization: true },
        origins: {
          affinityKey: 'prompt_cache_key',
          'sampling.topK': 'top_k',
          'sampling.minP': 'min_p',
          'sampling.typicalP': 'typical_p',
          'sampling.repetitionPenalty': 'repetition_penalty',
          'sampling.mirostat.target': 'mirostat_target',
          'sampling.mirostat.learningRate': 'mirostat_lr',
          'limits.ignoreEos': 'ignore_eos',
          'limits.onContextOverflow': 'context_length_exceeded_behavior',
          promptCacheKey: 'prompt_cache_key',
          promptCacheIsolationKey: 'prompt_cache_isolation_key',
          'vendor.fireworks.rawOutput': 'raw_output',
          returnTokenIds: 'return_token_ids',
          perfMetricsInBody: 'perf_metrics_in_response',
          samplingMask: 'sampling_mask',
          'reasoning.budgetTokens': 'thinking.budget_tokens',
          'reasoning.history': 'thinking.keep',
          prediction: 'speculation',
          toolChoice: 'tool_choice',
          tools: 'tools',
        },
      }),
    );
  });

  it('OpenAI-only fields are relayed verbatim; modalities ["text"] is simply honoured', () => {
    const body = {
      ...base,
      modalities: ['text'],
      verbosity: 'low',
      web_search_options: { search_context_size: 'low' },
      safety_identifier: 'hash-1',
      prompt_cache_retention: '24h',
      prompt_cache_options: { ttl: '1h' },
      moderation: { model: 'omni-moderation-latest' },
    };
    expect(parseChatRequest(body)).toEqual(
      neutral({
        passthrough: {
          verbosity: 'low',
          web_search_options: { search_context_size: 'low' },
          safety_identifier: 'hash-1',
          prompt_cache_retention: '24h',
          prompt_cache_options: { ttl: '1h' },
          moderation: { model: 'omni-moderation-latest' },
        },
        // An option the model may ignore: a backend without it goes without (plan.ts).
        offeredPassthrough: ['web_search_options'],
      }),
    );
  });

  it('audio output is refused rather than lost (the neutral result has no audio)', () => {
    expect(() => parseChatRequest({ ...base, modalities: ['text', 'audio'] })).toThrow(
      expect.objectContaining({ status: 400, param: 'modalities' }),
    );
    expect(() => parseChatRequest({ ...base, audio: { voice: 'alloy', format: 'wav' } })).toThrow(
      expect.objectContaining({ status: 400, param: 'audio' }),
    );
    expect(parseChatRequest({ ...base, modalities: ['text'] })).toEqual(neutral({}));
  });

  it('legacy functions map to tools and mark the request so answers use function_call', () => {
    const body = { ...base, functions: [{ name: 'weather' }], function_call: { name: 'weather' } };
    expect(parseChatRequest(body)).toEqual(
      neutral({
        tools: [{ name: 'weather' }],
        legacyFunctions: true,
        toolChoice: { name: 'weather' },
        origins: { tools: 'functions', legacyFunctions: 'functions', toolChoice: 'function_call' },
      }),
    );
  });

  it('allowed_tools narrows tools whatever the key order', () => {
    const body = {
      ...base,
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'time' } }] },
      },
      tools: [weather, { type: 'function', function: { name: 'time' } }],
    };
    const request = parseChatRequest(body);
    expect([request.tools, request.toolChoice]).toEqual([[{ name: 'time' }], 'required']);
  });

  it('integer logprobs (Fireworks) answer in the legacy shape', () => {
    expect(parseChatRequest({ ...base, logprobs: 3 }).logprobs).toEqual({ top: 3, shape: 'legacy' });
  });

  it('session headers set the affinity key when no prompt_cache_key', () => {
    const request = parseChatRequest({ ...base, user: 'u-1' }, { 'x-multi-turn-session-id': 'traj-4' });
    expect([request.affinityKey, request.origins.affinityKey, request.user]).toEqual(['traj-4', 'x-multi-turn-session-id', 'u-1']);
  });

  it.each([
    ['max_tokens with max_completion_tokens', { max_tokens: 5, max_completion_tokens: 5 }, 'max_completion_tokens'],
    ['top_logprobs without logprobs: true', { top_logprobs: 2 }, 'top_logprobs'],
    ['stream_options without stream: true', { stream_options: { include_usage: true } }, 'stream_options'],
    ['tools with functions', { tools: [weather], functions: [{ name: 'f' }] }, 'functions'],
    ['tool_choice with function_call', { functions: [{ name: 'f' }], tool_choice: 'auto', function_call: 'auto' }, 'function_call'],
    ['function_call without functions', { function_call: 'auto' }, 'function_call'],
    ['tool_choice required without tools', { tool_choice: 'required' }, 'tool_choice'],
    [
      'tool_choice naming an undeclared tool',
      { tools: [weather], tool_choice: { type: 'function', function: { name: 'time' } } },
      'tool_choice',
    ],
    [
      'allowed_tools naming an undeclared tool',
      {
        tools: [weather],
        tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'x' } }] } },
      },
      'tool_choice',
    ],
    ['function_call naming an undeclared function', { functions: [{ name: 'f' }], function_call: { name: 'g' } }, 'function_call'],
    ['prediction with speculation', { prediction: { type: 'content', content: 'a' }, speculation: 'a' }, 'speculation'],
    [
      'thinking keep all with reasoning_history disabled',
      { thinking: { type: 'enabled', keep: 'all' }, reasoning_history: 'disabled' },
      'reasoning_history',
    ],
    [
      'a custom tool choice naming an undeclared tool',
      { tools: [{ type: 'custom', custom: { name: 'sql' } }], tool_choice: { type: 'custom', custom: { name: 'x' } } },
      'tool_choice',
    ],
    ['an unknown field', { best_of: 2 }, 'best_of'],
    ['a completions-only field', { prompt: 'Once' }, 'prompt'],
  ])('%s -> 400', (_name, extra, param) => {
    expect(paramOf(() => parseChatRequest({ ...base, ...extra }))).toBe(param);
  });
});

describe('parseChatRequest: completions-only fields', () => {
  test.each(['echo', 'echo_last'])('%s is a 400 pointing to /v1/completions', (field) => {
    expect(() =>
      parseChatRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], [field]: field === 'echo' ? true : 2 }),
    ).toThrow(expect.objectContaining({ status: 400, param: field, message: expect.stringContaining('/v1/completions') }));
  });
});
