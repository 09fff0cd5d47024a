/** Paths the proxy does not translate relay untouched to the pass-through backend (http-proxy-middleware). */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

describe('pass-through relay', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream({
      json: {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.5, -0.25] }],
        model: 'emb',
        usage: { prompt_tokens: 2, total_tokens: 2 },
      },
    });
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai', apiKey: 'sk-upstream' },
      { passthrough: 'upstream', server: { apiKeys: ['caller-key'] } },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('an SDK call to /v1/embeddings reaches the backend with the backend key, never the caller key', async () => {
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'caller-key', maxRetries: 0 });
    const result = await client.embeddings.create({ model: 'emb', input: 'hello', encoding_format: 'float' });
    expect(result.data[0].embedding).toEqual([0.5, -0.25]);
    const [seen] = upstream.requests;
    expect(seen.path).toBe('/v1/embeddings');
    expect(seen.body).toEqual({ model: 'emb', input: 'hello', encoding_format: 'float' });
    expect(seen.headers.authorization).toBe('Bearer sk-upstream');
  });

  test('the relay still checks the caller key', async () => {
    const response = await fetch(`${proxy.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
  });
});

describe('pass-through relay to an anthropic backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream({ json: { data: [{ type: 'model', id: 'claude-x' }], has_more: false } });
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'anthropic', apiKey: 'sk-ant-upstream', betas: ['files-api-2025-04-14'] },
      { passthrough: 'upstream', server: { apiKeys: ['caller-key'] } },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test("the backend's key goes as Anthropic takes it (x-api-key, anthropic-version), never as a Bearer token nor the caller's", async () => {
    const response = await fetch(`${proxy.url}/v1/files`, { headers: { 'x-api-key': 'caller-key' } });
    expect(response.status).toBe(200);
    const [seen] = upstream.requests;
    expect(seen.path).toBe('/v1/files');
    expect(seen.headers).toMatchObject({
      'x-api-key': 'sk-ant-upstream',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'files-api-2025-04-14',
    });
    expect(seen.headers.authorization).toBeUndefined();
  });
});
