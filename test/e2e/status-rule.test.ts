/**
 * One status rule per endpoint for refusals (README, "Errors"):
 *  - POST /v1/completions: 422 when the body does not match the schema (as Fireworks' validation
 *    answers), 400 when a valid body is refused (a value the dialect cannot take, fields that
 *    conflict, a field the routed backend does not support, the upstream's own 400); both with `detail`.
 *  - POST /v1/chat/completions: 400 for both, as OpenAI answers.
 */
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

describe('the status of a refusal', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream({
      status: 400,
      json: { error: { message: 'top_p is out of range for this model', type: 'invalid_request_error', param: 'top_p', code: null } },
    });
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'], retries: { attempts: 0 } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  async function post(
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: { error: { param: string | null }; detail?: unknown[] } }> {
    const response = await fetch(proxy.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error: { param: string | null }; detail?: unknown[] } };
  }

  const text = { model: 'm', prompt: 'Once upon a time' };
  const chat = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

  test.each([
    ['a schema error', { temperature: 'hot' }, 422, 'temperature'],
    ['a value the dialect cannot take', { max_tokens: -1 }, 400, 'max_tokens'],
    ['fields that conflict', { max_tokens: 5, max_completion_tokens: 5 }, 400, 'max_completion_tokens'],
    ['a field the backend does not support', { top_k: 40 }, 400, 'top_k'],
    ["the upstream's own 400", { top_p: 0.5 }, 400, 'top_p'],
  ])('/v1/completions, %s', async (_what, extra, status, param) => {
    const answer = await post('/v1/completions', { ...text, ...extra });
    expect(answer.status).toBe(status);
    expect(answer.body.error.param).toBe(param);
    expect(answer.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ['body', param] })]));
  });

  test.each([
    ['a schema error', { temperature: 'hot' }, 'temperature'],
    ['a value the dialect cannot take', { max_tokens: -1 }, 'max_tokens'],
    ['fields that conflict', { max_tokens: 5, max_completion_tokens: 5 }, 'max_completion_tokens'],
    ['a field the backend does not support', { top_k: 40 }, 'top_k'],
    ["the upstream's own 400", { top_p: 0.5 }, 'top_p'],
  ])('/v1/chat/completions, %s: 400', async (_what, extra, param) => {
    const answer = await post('/v1/chat/completions', { ...chat, ...extra });
    expect(answer.status).toBe(400);
    expect(answer.body.error.param).toBe(param);
    expect(answer.body.detail).toBeUndefined();
  });
});
