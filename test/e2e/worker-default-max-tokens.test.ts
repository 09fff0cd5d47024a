/**
 * The bundled worker's `defaultMaxTokens`: a request that sets no max_tokens stops there, with a warning
 * (without it, it runs until the context is full: on config/default.yaml's 131072 tokens, minutes of text);
 * one that sets its own keeps it. config/default.yaml, what `npm start` serves, sets one.
 */
import { loadConfig } from '../../src/runtime/configuration.js';
import type { RunningServer } from '../../src/http/server.js';
import { startBuiltinProxy } from '../helpers/start-proxy.js';

describe("the bundled worker's defaultMaxTokens", () => {
  let proxy: RunningServer;
  beforeAll(async () => {
    proxy = await startBuiltinProxy({ parallel: 1, defaultMaxTokens: 6 });
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  const chat = (extra: Record<string, unknown> = {}) =>
    fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'any', messages: [{ role: 'user', content: 'Once upon a time' }], temperature: 0, ...extra }),
    });

  test('a request without max_tokens stops at it, and says so', async () => {
    const response = await chat();
    const body = (await response.json()) as { usage: { completion_tokens: number }; choices: { finish_reason: string }[] };
    expect(response.status).toBe(200);
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(6);
    expect(response.headers.get('x-dialect-warnings')).toContain("max_tokens was sent as 6 (the backend's defaultMaxTokens)");
  });

  test("a request's own max_tokens is its own: no warning", async () => {
    const response = await chat({ max_tokens: 3 });
    const body = (await response.json()) as { usage: { completion_tokens: number } };
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(3);
    expect(response.headers.get('x-dialect-warnings') ?? '').not.toContain('defaultMaxTokens');
  });

  test('config/default.yaml (npm start) sets one', () => {
    const config = loadConfig('config/default.yaml', {});
    expect(config.backends.local).toMatchObject({ kind: 'llama-cpp', defaultMaxTokens: 4096 });
  });
});
