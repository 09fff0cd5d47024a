/**
 * The `openai` SDK against the proxy on the bundled llama.cpp worker.
 * Needs ../shared (stories260K.gguf); skipped where it is absent.
 */
import path from 'node:path';
import OpenAI from 'openai';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { describeWithShared } from '../helpers/shared.js';

const storiesPath = path.resolve('../shared/models/stories260K.gguf');
const describeShared = describeWithShared(storiesPath);
const greedyStart = ', there was a little girl named Lily. She loved to play outside in the park.';

describeShared('openai SDK -> dialect-proxy -> bundled llama.cpp worker (stories260K)', () => {
  let proxy: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    const config = loadConfig({
      backends: { local: { kind: 'llama-cpp', model: storiesPath, contextSize: 2048, parallel: 1, threads: 1 } },
      routes: [{ model: '*', backend: 'local' }],
    });
    proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    await proxy.proxy.ready;
    client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  test('greedy completions are deterministic and readable', async () => {
    const first = await client.completions.create({ model: 'stories', prompt: 'Once upon a time', max_tokens: 30, temperature: 0 });
    const second = await client.completions.create({ model: 'stories', prompt: 'Once upon a time', max_tokens: 30, temperature: 0 });
    expect(first.choices[0].text.startsWith(greedyStart)).toBe(true);
    expect(second.choices[0].text).toBe(first.choices[0].text);
    expect(first.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 30, total_tokens: 35 });
  });

  test('logprobs: 3 gives up to 4 alternatives per token, <= 0, sorted, the sampled token among them', async () => {
    const answer = await client.completions.create({
      model: 'stories',
      prompt: 'Once upon a time',
      max_tokens: 8,
      temperature: 0,
      logprobs: 3,
    });
    const logprobs = answer.choices[0].logprobs!;
    expect(logprobs.tokens).toHaveLength(8);
    expect(logprobs.tokens!.join('')).toBe(answer.choices[0].text);
    logprobs.top_logprobs!.forEach((alternatives, i) => {
      const values = Object.values(alternatives);
      expect(values.length).toBeGreaterThanOrEqual(1);
      expect(values.length).toBeLessThanOrEqual(4);
      values.forEach((value) => expect(value).toBeLessThanOrEqual(0));
      expect([...values].sort((a, b) => b - a)).toEqual(values);
      expect(alternatives).toHaveProperty([logprobs.tokens![i]]);
    });
    expect(logprobs.text_offset).toEqual(
      logprobs.tokens!.reduce<number[]>(
        (offsets, _token, i) => [...offsets, i === 0 ? 0 : offsets[i - 1] + logprobs.tokens![i - 1].length],
        [],
      ),
    );
  });

  test('echo with logprobs returns the prompt tokens first', async () => {
    const answer = await client.completions.create({
      model: 'stories',
      prompt: 'Once upon a time',
      max_tokens: 4,
      temperature: 0,
      echo: true,
      logprobs: 1,
    });
    const { text, logprobs } = answer.choices[0];
    expect(text.startsWith('Once upon a time,')).toBe(true);
    expect(logprobs!.tokens!.slice(0, 4).join('')).toBe('Once upon a time');
    expect(logprobs!.tokens).toHaveLength(8);
    expect(logprobs!.text_offset![0]).toBe(0);
  });

  test('a seed makes sampling repeatable', async () => {
    const ask = () =>
      client.completions.create({ model: 'stories', prompt: 'Once upon a time', max_tokens: 24, temperature: 1, seed: 1234 });
    const [a, b] = [await ask(), await ask()];
    expect(a.choices[0].text).toBe(b.choices[0].text);
  });

  test('a json_schema response parses and validates', async () => {
    const answer = await client.chat.completions.create({
      model: 'stories',
      messages: [{ role: 'user', content: 'Give me a name.' }],
      max_tokens: 60,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'person',
          schema: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 12 }, age: { type: 'integer' } },
            required: ['name', 'age'],
            additionalProperties: false,
          },
        },
      },
    });
    const parsed = JSON.parse(answer.choices[0].message.content!) as { name: unknown; age: unknown };
    expect(typeof parsed.name).toBe('string');
    expect(Number.isInteger(parsed.age)).toBe(true);
  });

  test('stop cuts, and the stop text is not in the answer', async () => {
    const answer = await client.completions.create({
      model: 'stories',
      prompt: 'Once upon a time',
      max_tokens: 40,
      temperature: 0,
      stop: ['Lily'],
    });
    expect(answer.choices[0].text).toBe(', there was a little girl named ');
    expect(answer.choices[0].finish_reason).toBe('stop');
  });

  test('n: 3 gives three choices', async () => {
    const answer = await client.completions.create({
      model: 'stories',
      prompt: 'Once upon a time',
      max_tokens: 6,
      temperature: 1,
      seed: 7,
      n: 3,
    });
    expect(answer.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    expect(answer.usage?.completion_tokens).toBe(18);
  });

  test('chat works through the fallback (ChatML) template, streamed too', async () => {
    const answer = await client.chat.completions.create({
      model: 'stories',
      messages: [{ role: 'user', content: 'Tell me a story.' }],
      max_tokens: 12,
      temperature: 0,
    });
    expect(answer.choices[0].message.content!.length).toBeGreaterThan(0);
    const stream = await client.chat.completions.create({
      model: 'stories',
      messages: [{ role: 'user', content: 'Tell me a story.' }],
      max_tokens: 12,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(answer.choices[0].message.content);
    expect(usage?.completion_tokens).toBe(answer.usage?.completion_tokens);
  });

  test('tool_choice required is enforced by a grammar: even this story model calls the tool', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'function', function: { name: 'send_email', parameters: { type: 'object' } } },
    ];
    const answer = await client.chat.completions.create({
      model: 'stories',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
      tool_choice: { type: 'function', function: { name: 'send_email' } },
      max_tokens: 1500,
      temperature: 0,
    });
    const [choice] = answer.choices;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toHaveLength(1);
    const call = choice.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('send_email');
    expect(typeof JSON.parse(call.function.arguments)).toBe('object');
  });

  test('a client that disconnects frees its sequence: the next request is served at once', async () => {
    const stream = await client.completions.create({
      model: 'stories',
      prompt: 'Once upon a time',
      max_tokens: 1900,
      temperature: 0,
      stream: true,
      ignore_eos: true,
    } as OpenAI.CompletionCreateParamsStreaming);
    let chunks = 0;
    // Leaving the loop makes the SDK abort its request.
    for await (const _chunk of stream) if (++chunks === 3) break;
    // parallel: 1 — if the aborted generation still held the only sequence, this would wait for ~1900 tokens.
    const next = await client.completions.create(
      { model: 'stories', prompt: 'Once upon a time', max_tokens: 5, temperature: 0 },
      { timeout: 5000 },
    );
    expect(next.choices[0].text).toBe(', there was a little');
  });
});
