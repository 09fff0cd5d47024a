/**
 * Attack: one request becomes thousands of upstream requests. A prompt batch to
 * a chat-only backend is fanned out one request per prompt; before the limits
 * a 20,000-prompt batch opened ~19,000 upstream requests at once (EMFILE, other
 * callers failed meanwhile). Now a batch is bounded (limits.promptBatch,
 * limits.choices) and its sub-requests run a few at a time, per request and per process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxyFor } from '../helpers/start-proxy.js';
import type { RunningServer } from '../../src/http/server.js';

/** A chat upstream that answers after `delayMs`, counting the requests it holds at once. */
async function slowChatUpstream(delayMs: number) {
  const counts = { now: 0, peak: 0, total: 0 };
  const server: Server = createServer((req, res) => {
    counts.now += 1;
    counts.total += 1;
    counts.peak = Math.max(counts.peak, counts.now);
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    let finished = false;
    const done = () => {
      if (!finished) {
        finished = true;
        counts.now -= 1;
      }
    };
    res.on('close', done);
    setTimeout(() => {
      if (body.includes('"stream":true')) {
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(chunk({ role: 'assistant', content: 'ok' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n');
        done();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
      done();
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const keys = { server: { apiKeys: ['key-a', 'key-b'] } };
const post = (proxy: RunningServer, body: unknown, key = 'key-a') =>
  fetch(`${proxy.url}/v1/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });

describe('a prompt batch cannot flood a backend', () => {
  let upstream: Awaited<ReturnType<typeof slowChatUpstream>>;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await slowChatUpstream(150);
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] }, keys);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => Object.assign(upstream.counts, { peak: 0, total: 0 }));

  test('a 20,000-prompt batch is a 400 naming prompt and limits.promptBatch, and nothing goes upstream', async () => {
    const response = await post(proxy, { model: 'm', prompt: Array.from({ length: 20_000 }, (_, i) => `p${i}`), max_tokens: 1 });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; code: string; message: string } };
    expect(error).toMatchObject({ param: 'prompt', code: 'limit_exceeded' });
    expect(error.message).toContain('limits.promptBatch');
    expect(upstream.counts.total).toBe(0);
  });

  test('200,000 empty prompts (600 KB) are refused the same way', async () => {
    const response = await post(proxy, { model: 'm', prompt: Array.from({ length: 200_000 }, () => ''), max_tokens: 1 });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'prompt', code: 'limit_exceeded' } });
  });

  test('n times the batch is bounded too (limits.choices), naming n', async () => {
    const response = await post(proxy, { model: 'm', prompt: Array.from({ length: 100 }, () => 'x'), n: 2, max_tokens: 1 });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; code: string; message: string } };
    expect(error).toMatchObject({ param: 'n', code: 'limit_exceeded' });
    expect(error.message).toContain('limits.choices');
  });

  test('one batch runs at most 16 sub-requests at once, and is answered whole', async () => {
    const prompts = Array.from({ length: 128 }, (_, i) => `p${i}`);
    const response = await post(proxy, { model: 'm', prompt: prompts, max_tokens: 1 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: { index: number }[] };
    expect(body.choices.map((choice) => choice.index)).toEqual(prompts.map((_, i) => i));
    expect(upstream.counts.total).toBe(128);
    expect(upstream.counts.peak).toBeLessThanOrEqual(16);
  });

  test('a streamed batch is held to the same 16', async () => {
    const response = await post(proxy, { model: 'm', prompt: Array.from({ length: 64 }, () => 'x'), max_tokens: 1, stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('[DONE]');
    expect(upstream.counts.total).toBe(64);
    expect(upstream.counts.peak).toBeLessThanOrEqual(16);
  });

  test('eight batches at once hold at most 64 upstream requests (the process), and another key is served within 2 s meanwhile', async () => {
    const batches = Array.from({ length: 8 }, () =>
      post(proxy, { model: 'm', prompt: Array.from({ length: 128 }, () => 'x'), max_tokens: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const other = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer key-b' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(other.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    const answers = await Promise.all(batches);
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(upstream.counts.total).toBe(8 * 128 + 1);
    // 64 fanned out plus the other key's own request.
    expect(upstream.counts.peak).toBeLessThanOrEqual(65);
  });

  test('a caller that leaves mid-batch stops the sub-requests still waiting', async () => {
    const abort = new AbortController();
    const pending = post(proxy, { model: 'm', prompt: Array.from({ length: 128 }, () => 'x'), max_tokens: 1 }).catch(() => undefined);
    void pending;
    const leaving = fetch(`${proxy.url}/v1/completions`, {
      method: 'POST',
      signal: abort.signal,
      headers: { 'content-type': 'application/json', authorization: 'Bearer key-a' },
      body: JSON.stringify({ model: 'm', prompt: Array.from({ length: 128 }, () => 'y'), max_tokens: 1 }),
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    await leaving;
    await pending;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The first batch's 128, and of the second only the few started before the caller left.
    expect(upstream.counts.total).toBeLessThan(128 + 48);
  });
});
