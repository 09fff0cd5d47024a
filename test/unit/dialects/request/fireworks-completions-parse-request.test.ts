/** dialects/fireworks-completions/parse-request.ts: completions wire body in -> exact NeutralRequest out. */
import { parseCompletionsRequest } from '../../../../src/dialects/fireworks-completions/parse-request.js';
import { emptyRequest, type NeutralRequest } from '../../../../src/model/request.js';
import { paramOf } from './expect-param.js';

const model = 'accounts/fireworks/models/llama-v3p1-8b-instruct';

function neutral(prompt: NeutralRequest['prompt'], parts: Partial<NeutralRequest> = {}): NeutralRequest {
  return { ...emptyRequest('text', model), prompt, ...parts, origins: { model: 'model', prompt: 'prompt', ...parts.origins } };
}

describe('parseCompletionsRequest', () => {
  it.each([
    ['a string', 'Once upon a time'],
    ['a batch of strings', ['Once', 'Twice']],
    ['token ids', [1, 9038, 2501]],
    ['a batch of token ids', [[1, 2], [3]]],
  ])('keeps the prompt as given: %s', (_name, prompt) => {
    expect(parseCompletionsRequest({ model, prompt })).toEqual(neutral(prompt));
  });

  it.each([
    ['legacy integer', { logprobs: 2 }, { top: 2, shape: 'legacy' }, 'logprobs'],
    ['legacy 0 still returns the sampled logprob', { logprobs: 0 }, { top: 0, shape: 'legacy' }, 'logprobs'],
    ['new format', { logprobs: true, top_logprobs: 3 }, { top: 3, shape: 'chat' }, 'top_logprobs'],
    ['new format, no alternatives', { logprobs: true }, { top: 0, shape: 'chat' }, 'logprobs'],
  ])('logprobs: %s', (_name, extra, logprobs, topOrigin) => {
    const origins = { logprobs: 'logprobs', 'logprobs.top': topOrigin };
    expect(parseCompletionsRequest({ model, prompt: 'a', ...extra })).toEqual(
      neutral('a', { logprobs: logprobs as NeutralRequest['logprobs'], origins }),
    );
  });

  it('logprobs false asks for none', () => {
    expect(parseCompletionsRequest({ model, prompt: 'a', logprobs: false })).toEqual(neutral('a'));
  });

  it('streams include usage by default (Fireworks), with token ids and emulated coalescing', () => {
    const body = { model, prompt: 'a', stream: true, stream_options: { include_internal_content: true, buffer_tokens: 4 } };
    expect(parseCompletionsRequest(body)).toEqual(
      neutral('a', { stream: { includeUsage: true, tokenIds: true, coalesce: { tokens: 4, mode: 'any' } }, origins: { stream: 'stream' } }),
    );
  });

  it('include_usage false opts out', () => {
    expect(parseCompletionsRequest({ model, prompt: 'a', stream: true, stream_options: { include_usage: false } }).stream).toEqual({
      includeUsage: false,
      tokenIds: false,
    });
  });

  it('echo, images, speculation, reasoning, overflow behaviour', () => {
    const body = {
      model,
      prompt: '<image> Describe',
      images: ['data:image/png;base64,AAAA'],
      echo_last: 2,
      speculation: 'The image shows',
      reasoning_effort: 512,
      context_length_exceeded_behavior: 'error',
      max_tokens: 100,
      n: 2,
      seed: 1,
    };
    expect(parseCompletionsRequest(body)).toEqual(
      neutral('<image> Describe', {
        images: ['data:image/png;base64,AAAA'],
        echo: { all: false, lastTokens: 2 },
        prediction: 'The image shows',
        reasoning: { budgetTokens: 512, offered: true },
        limits: { maxTokens: 100, stop: [], onContextOverflow: 'error' },
        choices: 2,
        sampling: { seed: 1 },
        origins: {
          images: 'images',
          echo: 'echo_last',
          prediction: 'speculation',
          'reasoning.budgetTokens': 'reasoning_effort',
          'limits.onContextOverflow': 'context_length_exceeded_behavior',
          'limits.maxTokens': 'max_tokens',
          choices: 'n',
          'sampling.seed': 'seed',
        },
      }),
    );
  });

  it('the session header wins over prompt_cache_key for affinity (the cache key is still sent)', () => {
    const request = parseCompletionsRequest({ model, prompt: 'a', prompt_cache_key: 'k' }, { 'x-session-affinity': 's' });
    expect([request.affinityKey, request.origins.affinityKey, request.promptCacheKey]).toEqual(['s', 'x-session-affinity', 'k']);
  });

  it.each([
    ['max_tokens with max_completion_tokens', { max_tokens: 1, max_completion_tokens: 1 }, 'max_completion_tokens'],
    ['speculation with prediction', { speculation: 'a', prediction: 'a' }, 'speculation'],
    ['echo with echo_last', { echo: true, echo_last: 1 }, 'echo_last'],
    ['top_logprobs without logprobs', { top_logprobs: 1 }, 'top_logprobs'],
    ['stream_options without stream', { stream_options: { include_usage: false } }, 'stream_options'],
    ['budget below 1024', { thinking: { type: 'enabled', budget_tokens: 10 } }, 'thinking.budget_tokens'],
    ['a chat-only field', { messages: [] }, 'messages'],
    ['an unknown field', { suffix: '!' }, 'suffix'],
  ])('%s -> 400', (_name, extra, param) => {
    expect(paramOf(() => parseCompletionsRequest({ model, prompt: 'a', ...extra }))).toBe(param);
  });
});
