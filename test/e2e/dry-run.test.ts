/** `x-dialect-dry-run: 1` answers with what would go upstream, and nothing goes. */
import type { RunningServer } from '../../src/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

describe('x-dialect-dry-run', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const post = (path: string, body: unknown) =>
    fetch(proxy.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('a completions request on a chat backend shows the translated chat requests, one per prompt', async () => {
    const response = await post('/v1/completions', { model: 'gpt-x', prompt: ['a', 'b'], max_tokens: 3, reasoning_effort: 3000 });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'dialect.dry_run',
      backend: 'upstream',
      kind: 'openai',
      warnings: ['reasoning_effort: a budget of 3000 thinking tokens was sent as reasoning_effort "medium"'],
      upstream: [
        { endpoint: '/chat/completions', stream: false, body: { model: 'gpt-x', messages: [{ role: 'user', content: 'a' }], max_completion_tokens: 3, reasoning_effort: 'medium' } },
        { endpoint: '/chat/completions', stream: false, body: { model: 'gpt-x', messages: [{ role: 'user', content: 'b' }], max_completion_tokens: 3, reasoning_effort: 'medium' } },
      ],
    });
    expect(upstream.requests).toHaveLength(0);
  });

  test('what the move would lose is the same 400 a real request gets', async () => {
    const response = await post('/v1/chat/completions', { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], top_k: 5 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('top_k');
    expect(upstream.requests).toHaveLength(0);
  });
});
