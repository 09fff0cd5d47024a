/** The official `openai` SDK against the running proxy, over a mock upstream that records what it receives. */
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const created = 1700000000;
const chatJson = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' }, logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
};
const chatChunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'up-model', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
const chatSse = [
  chatChunk({ role: 'assistant', content: '' }),
  chatChunk({ content: 'Hel' }),
  chatChunk({ content: 'lo!' }),
  chatChunk({}, 'stop'),
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'up-model', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } })}\n\n`,
  'data: [DONE]\n\n',
];
const completionJson = {
  id: 'cmpl-1',
  object: 'text_completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, text: ' there was a fox.', logprobs: null, finish_reason: 'stop' }],
  usage: { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
};
const completionChunk = (text: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'cmpl-2', object: 'text_completion', created, model: 'up-model', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;
const completionSse = [
  completionChunk(' there'),
  completionChunk(' was'),
  completionChunk('', 'length'),
  `data: ${JSON.stringify({ id: 'cmpl-2', object: 'text_completion', created, model: 'up-model', choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } })}\n\n`,
  'data: [DONE]\n\n',
];

describe('openai SDK -> dialect-proxy', () => {
  let upstream: MockUpstream;
  let openaiBackend: RunningServer;
  let fireworksBackend: RunningServer;
  const client = (server: RunningServer) => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'caller-key', maxRetries: 0 });

  beforeAll(async () => {
    upstream = await startMockUpstream();
    // No upstream retries (faults.test.ts tests those): with the default two, the 429 below (Retry-After: 7) cost 14 s of waiting.
    openaiBackend = await startProxyFor(upstream.url, {
      kind: 'openai',
      speaks: ['chat'],
      apiKey: 'upstream-secret',
      retries: { attempts: 0 },
    });
    fireworksBackend = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions', 'chat'] });
  });
  afterAll(async () => {
    await Promise.all([openaiBackend.close(), fireworksBackend.close()]);
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('chat.completions.create relays natively to an OpenAI backend', async () => {
    upstream.reply({ json: chatJson });
    const answer = await client(openaiBackend).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.5,
    });
    expect(answer.choices[0].message.content).toBe('Hello there!');
    expect(answer.usage).toEqual({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
    expect(upstream.requests[0].path).toBe('/v1/chat/completions');
    expect(upstream.requests[0].headers.authorization).toBe('Bearer upstream-secret');
    expect(upstream.requests[0].body).toMatchObject({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], temperature: 0.5 });
  });

  test('streamed chat with include_usage gives deltas, finish_reason and a usage chunk', async () => {
    upstream.reply({ sse: chatSse });
    const stream = await client(openaiBackend).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello!');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    // The proxy always asks the upstream for usage, so it can log it.
    expect(upstream.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  test('streamed chat without include_usage sends no usage', async () => {
    upstream.reply({ sse: chatSse });
    const stream = await client(openaiBackend).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello!');
  });

  test('completions.create on a chat-only backend is translated to chat and back', async () => {
    upstream.reply({ json: chatJson });
    const answer = await client(openaiBackend).completions.create({ model: 'gpt-test', prompt: 'Say hi', max_tokens: 8 });
    expect(answer.object).toBe('text_completion');
    expect(answer.choices[0].text).toBe('Hello there!');
    expect(upstream.requests[0].path).toBe('/v1/chat/completions');
    expect(upstream.requests[0].body).toMatchObject({ messages: [{ role: 'user', content: 'Say hi' }] });
  });

  test('completions.create relays natively to a Fireworks backend', async () => {
    upstream.reply({ json: completionJson });
    const answer = await client(fireworksBackend).completions.create({
      model: 'accounts/fireworks/models/x',
      prompt: 'Once upon a time',
      max_tokens: 5,
    });
    expect(answer.choices[0].text).toBe(' there was a fox.');
    expect(upstream.requests[0].path).toBe('/v1/completions');
    expect(upstream.requests[0].body).toMatchObject({ prompt: 'Once upon a time', max_tokens: 5 });
  });

  test('streamed completions carry usage by default (Fireworks) and honour include_usage: false', async () => {
    upstream.reply({ sse: completionSse });
    const stream = await client(fireworksBackend).completions.create({
      model: 'm',
      prompt: 'Once upon a time',
      max_tokens: 2,
      stream: true,
    });
    let text = '';
    let usage: unknown;
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(' there was');
    expect(finish).toBe('length');
    expect(usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });

    upstream.reply({ sse: completionSse });
    const quiet = await client(fireworksBackend).completions.create({
      model: 'm',
      prompt: 'Once',
      stream: true,
      stream_options: { include_usage: false },
    });
    const chunks = [];
    for await (const chunk of quiet) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
  });

  test('an upstream 429 reaches the SDK as a RateLimitError with retry-after', async () => {
    upstream.reply({ status: 429, headers: { 'retry-after': '7' }, json: { error: { message: 'slow down', type: 'rate_limit_error' } } });
    const failure = client(openaiBackend).chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }] });
    await expect(failure).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await failure.catch((error: InstanceType<typeof OpenAI.APIError>) => {
      expect(error.status).toBe(429);
      expect(error.headers?.get('retry-after')).toBe('7');
    });
    expect(upstream.requests).toHaveLength(1);
  });

  test('a validation failure reaches the SDK as a BadRequestError naming the param', async () => {
    const failure = client(openaiBackend).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 5,
    });
    await expect(failure).rejects.toMatchObject({ status: 400, param: 'temperature' });
    expect(upstream.requests).toHaveLength(0);
  });

  test('aborting a stream aborts the upstream request', async () => {
    upstream.reply({ sse: [chatSse[0], chatSse[1], ...Array.from({ length: 200 }, () => chatChunk({ content: 'x' }))], delayMs: 20 });
    const stream = await client(openaiBackend).chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let seen = 0;
    // Leaving the loop makes the SDK abort its request.
    for await (const _chunk of stream) if (++seen === 2) break;
    expect(seen).toBe(2);
    for (let i = 0; i < 100 && upstream.aborted.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstream.aborted).toHaveLength(1);
  });
});
