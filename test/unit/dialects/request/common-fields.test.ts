/** dialects/common-fields.ts: each shared row that is not a plain copy, small body in -> exact neutral request out. */
import { commonFields, streamFields } from '../../../../src/dialects/common-fields.js';
import { applyFieldTable, type FieldRule } from '../../../../src/dialects/field-table.js';
import { emptyRequest, type NeutralRequest } from '../../../../src/model/request.js';
import { paramOf } from './expect-param.js';

const table: Record<string, FieldRule> = { ...commonFields, ...streamFields({ includeUsage: true }) };

function parse(body: Record<string, unknown>, rules: Record<string, FieldRule> = table): NeutralRequest {
  const request = emptyRequest('text');
  applyFieldTable(rules, body, request);
  return request;
}

const neutral = (parts: Partial<NeutralRequest>): NeutralRequest => ({ ...emptyRequest('text'), ...parts });

describe('plain copies', () => {
  it.each([
    ['temperature', 0.2, { sampling: { temperature: 0.2 } }, 'sampling.temperature'],
    ['top_k', 40, { sampling: { topK: 40 } }, 'sampling.topK'],
    ['min_p', 0.05, { sampling: { minP: 0.05 } }, 'sampling.minP'],
    ['repetition_penalty', 1.2, { sampling: { repetitionPenalty: 1.2 } }, 'sampling.repetitionPenalty'],
    ['mirostat_target', 5, { sampling: { mirostat: { target: 5 } } }, 'sampling.mirostat.target'],
    ['logit_bias', { '50256': -100 }, { sampling: { logitBias: { '50256': -100 } } }, 'sampling.logitBias'],
    ['n', 3, { choices: 3 }, 'choices'],
    ['max_completion_tokens', 64, { limits: { stop: [], onContextOverflow: 'truncate', maxTokens: 64 } }, 'limits.maxTokens'],
    ['context_length_exceeded_behavior', 'error', { limits: { stop: [], onContextOverflow: 'error' } }, 'limits.onContextOverflow'],
    ['perf_metrics_in_response', true, { perfMetricsInBody: true }, 'perfMetricsInBody'],
    ['sampling_mask', 'count', { samplingMask: 'count' }, 'samplingMask'],
    ['service_tier', 'priority', { serviceTier: 'priority' }, 'serviceTier'],
  ] as const)('%s', (field, value, parts, path) => {
    expect(parse({ [field]: value })).toEqual(neutral({ ...(parts as Partial<NeutralRequest>), origins: { [path]: field } }));
  });

  it('skips null, which both specs use for "not set"', () => {
    expect(parse({ temperature: null, stop: null, thinking: null })).toEqual(neutral({}));
  });
});

describe('stop', () => {
  it('a string becomes a one-item list', () => {
    expect(parse({ stop: '\n' })).toEqual(
      neutral({ limits: { stop: ['\n'], onContextOverflow: 'truncate' }, origins: { 'limits.stop': 'stop' } }),
    );
  });
  it('a list is kept', () => {
    expect(parse({ stop: ['a', 'b'] }).limits.stop).toEqual(['a', 'b']);
  });
  it('rejects anything else', () => {
    expect(paramOf(() => parse({ stop: [1] }))).toBe('stop');
  });
});

describe('logprobs', () => {
  it.each([
    ['true alone: chat shape, no alternatives', { logprobs: true }, { top: 0, shape: 'chat' }, 'logprobs'],
    ['true + top_logprobs', { logprobs: true, top_logprobs: 3 }, { top: 3, shape: 'chat' }, 'top_logprobs'],
    ['integer: legacy shape', { logprobs: 2 }, { top: 2, shape: 'legacy' }, 'logprobs'],
    ['0: legacy, still the sampled token', { logprobs: 0 }, { top: 0, shape: 'legacy' }, 'logprobs'],
    [
      'integer + top_logprobs: Fireworks lets top_logprobs set the count',
      { logprobs: 1, top_logprobs: 4 },
      { top: 4, shape: 'legacy' },
      'top_logprobs',
    ],
  ])('%s', (_name, body, logprobs, topOrigin) => {
    expect(parse(body)).toEqual(
      neutral({ logprobs: logprobs as NeutralRequest['logprobs'], origins: { logprobs: 'logprobs', 'logprobs.top': topOrigin } }),
    );
  });
  it('false asks for none', () => {
    expect(parse({ logprobs: false })).toEqual(neutral({}));
  });
});

describe('echo', () => {
  it('echo true', () => {
    expect(parse({ echo: true })).toEqual(neutral({ echo: { all: true }, origins: { echo: 'echo' } }));
  });
  it('echo false is the default', () => {
    expect(parse({ echo: false })).toEqual(neutral({}));
  });
  it('echo_last', () => {
    expect(parse({ echo: false, echo_last: 3 })).toEqual(neutral({ echo: { all: false, lastTokens: 3 }, origins: { echo: 'echo_last' } }));
  });
});

describe('prediction and speculation', () => {
  it.each([
    ['OpenAI content string', { prediction: { type: 'content', content: 'abc' } }, 'abc', 'prediction'],
    [
      'OpenAI text parts, joined',
      {
        prediction: {
          type: 'content',
          content: [
            { type: 'text', text: 'ab' },
            { type: 'text', text: 'c' },
          ],
        },
      },
      'abc',
      'prediction',
    ],
    ['Fireworks plain string', { prediction: 'abc' }, 'abc', 'prediction'],
    ['speculation text', { speculation: 'abc' }, 'abc', 'speculation'],
    ['speculation token ids', { speculation: [1, 2, 3] }, [1, 2, 3], 'speculation'],
  ])('%s', (_name, body, prediction, origin) => {
    expect(parse(body)).toEqual(neutral({ prediction, origins: { prediction: origin } }));
  });
  it('rejects a non-text prediction part', () => {
    expect(paramOf(() => parse({ prediction: { type: 'content', content: [{ type: 'image_url', image_url: { url: 'x' } }] } }))).toBe(
      'prediction.content.0',
    );
  });
});

describe('reasoning rows', () => {
  it('normalise the three fields once, with origins and warnings', () => {
    expect(parse({ reasoning_effort: 'low', thinking: { type: 'enabled', effort: 'high' }, reasoning_history: 'preserved' })).toEqual(
      neutral({
        reasoning: { effort: 'high', history: 'preserved', offered: true },
        origins: { 'reasoning.effort': 'thinking.effort', 'reasoning.history': 'reasoning_history' },
        warnings: ['reasoning_effort is overridden by thinking.effort.'],
      }),
    );
  });
});

describe('response_format row', () => {
  it('delegates to parseResponseFormat and names nested params', () => {
    expect(parse({ response_format: { type: 'json_object' } })).toEqual(
      neutral({ responseFormat: { type: 'json_object' }, origins: { responseFormat: 'response_format' } }),
    );
    expect(paramOf(() => parse({ response_format: { type: 'grammar' } }))).toBe('response_format.grammar');
  });
});

describe('streamFields', () => {
  it('stream true with the dialect default (completions: usage on)', () => {
    expect(parse({ stream: true })).toEqual(neutral({ stream: { includeUsage: true, tokenIds: false }, origins: { stream: 'stream' } }));
  });
  it('chat default: usage off', () => {
    expect(parse({ stream: true }, streamFields({ includeUsage: false })).stream).toEqual({ includeUsage: false, tokenIds: false });
  });
  it('stream false: no stream', () => {
    expect(parse({ stream: false })).toEqual(neutral({}));
  });
  it('options map whatever order they arrive in', () => {
    const body = {
      stream_options: { include_usage: false, include_internal_content: true, buffer_tokens: 8, buffer_ms: 0, buffer_mode: 'all' },
      stream: true,
    };
    expect(parse(body)).toEqual(
      neutral({
        stream: { includeUsage: false, tokenIds: true, coalesce: { tokens: 8, ms: 0, mode: 'all' } },
        origins: { stream: 'stream' },
      }),
    );
  });
  it("buffer_mode defaults to 'any'", () => {
    expect(parse({ stream: true, stream_options: { buffer_ms: 50 } }).stream).toEqual({
      includeUsage: true,
      tokenIds: false,
      coalesce: { ms: 50, mode: 'any' },
    });
  });
  it('include_obfuscation true leaves a warning: the proxy never pads', () => {
    expect(parse({ stream: true, stream_options: { include_obfuscation: true } }, streamFields({ includeUsage: false }))).toEqual(
      neutral({
        stream: { includeUsage: false, tokenIds: false },
        origins: { stream: 'stream' },
        warnings: ['stream_options.include_obfuscation: the proxy does not add obfuscation padding.'],
      }),
    );
  });
  it.each([
    [{ stream: true, stream_options: { include_everything: true } }, 'stream_options.include_everything'],
    [{ stream: true, stream_options: { buffer_mode: 'some' } }, 'stream_options.buffer_mode'],
  ])('rejects %p', (body, param) => {
    expect(paramOf(() => parse(body))).toBe(param);
  });
});
