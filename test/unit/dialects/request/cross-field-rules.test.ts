/** dialects/request-context.ts: the shared cross-field rules and the session-affinity key. */
import {
  applyCrossFieldRules,
  commonCrossFieldRules,
  headerValue,
  type RequestHeaders,
} from '../../../../src/dialects/cross-field-rules.js';
import { emptyRequest, type NeutralRequest } from '../../../../src/model/request.js';
import { paramOf } from './expect-param.js';

function run(body: Record<string, unknown>, headers: RequestHeaders = {}): NeutralRequest {
  const request = emptyRequest('text');
  applyCrossFieldRules(commonCrossFieldRules, { body, headers, request });
  return request;
}

describe('common cross-field rules', () => {
  it.each([
    ['max_tokens with max_completion_tokens', { max_tokens: 5, max_completion_tokens: 5 }, 'max_completion_tokens'],
    ['top_logprobs without logprobs', { top_logprobs: 2 }, 'top_logprobs'],
    ['top_logprobs with logprobs false', { logprobs: false, top_logprobs: 2 }, 'top_logprobs'],
    ['stream_options without stream', { stream_options: { include_usage: true } }, 'stream_options'],
    ['stream_options with stream false', { stream: false, stream_options: { include_usage: true } }, 'stream_options'],
    ['prediction with speculation', { prediction: 'a', speculation: 'b' }, 'speculation'],
    ['echo with echo_last', { echo: true, echo_last: 2 }, 'echo_last'],
    ['mirostat_lr without mirostat_target', { mirostat_lr: 0.1 }, 'mirostat_lr'],
  ])('%s -> 400', (_name, body, param) => {
    expect(paramOf(() => run(body))).toBe(param);
  });

  it.each([
    [
      'one of each pair',
      { max_tokens: 5, top_logprobs: 1, logprobs: true, stream: true, stream_options: {}, speculation: 'b', echo_last: 1 },
    ],
    ['integer logprobs with top_logprobs', { logprobs: 0, top_logprobs: 1 }],
    ['echo false with echo_last', { echo: false, echo_last: 2 }],
    ['nulls are unset', { max_tokens: null, max_completion_tokens: 5, prediction: null, speculation: 'x', mirostat_lr: null }],
    ['mirostat pair', { mirostat_target: 5, mirostat_lr: 0.1 }],
  ])('%s passes', (_name, body) => {
    expect(run(body)).toEqual(emptyRequest('text'));
  });
});

describe('affinity key: x-session-affinity > x-multi-turn-session-id > prompt_cache_key > user', () => {
  const all = { prompt_cache_key: 'pck', user: 'u1' };
  const headers = { 'x-session-affinity': 'sa', 'x-multi-turn-session-id': 'mt' };
  it.each([
    ['x-session-affinity first', all, headers, 'sa', 'x-session-affinity'],
    ['then x-multi-turn-session-id', all, { 'x-multi-turn-session-id': ['mt', 'ignored'] }, 'mt', 'x-multi-turn-session-id'],
    ['then prompt_cache_key', all, { 'x-session-affinity': '' }, 'pck', 'prompt_cache_key'],
    ['then user', { user: 'u1' }, { 'x-session-affinity': '' }, 'u1', 'user'],
  ])('%s', (_name, body, hdrs, key, origin) => {
    expect(run(body, hdrs)).toEqual({ ...emptyRequest('text'), affinityKey: key, origins: { affinityKey: origin } });
  });
  it('none at all: no key', () => {
    expect(run({}).affinityKey).toBeUndefined();
  });
  it('headers match case-insensitively', () => {
    expect(headerValue({ 'X-Session-Affinity': 'abc' }, 'x-session-affinity')).toBe('abc');
  });
});
