/**
 * The official `@google/genai` SDK against the running proxy's Gemini front: a chat backend (a mock
 * OpenAI upstream that records what it gets), a completions-only backend (the chat template renders
 * the conversation), an Anthropic backend (thinking and its signature carried through the proxy's
 * sealed thoughtSignature) and the bundled llama.cpp worker on the built-in model.
 */
import { ApiError, FinishReason, FunctionCallingConfigMode, GoogleGenAI, type Content } from '@google/genai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startBuiltinProxy, startProxyFor } from '../helpers/start-proxy.js';
import { anthropicMessage, startMockAnthropic, textStream, type MockAnthropic } from '../helpers/mock-anthropic.js';

const created = 1700000000;
const chatAnswer = (message: Record<string, unknown>, finish = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'up-model',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26, prompt_tokens_details: { cached_tokens: 16 } },
});
const chunk = (delta: object | null, finish: string | null = null, usage?: object) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created, model: 'up-model', choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: finish }] : [], ...(usage ? { usage } : {}) })}\n\n`;
const weather = {
  name: 'get_weather',
  description: 'The weather in a city.',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
/**
 * The SDK's own fetch set-up reaches for Node's undici dispatcher on `globalThis`, which Jest's module
 * sandbox does not have ("Undici globalDispatcher is not available"): given a fetch, it uses that as is.
 */
const client = (url: string, apiKey = 'caller-key') =>
  new GoogleGenAI({ apiKey, httpOptions: { baseUrl: url, retryOptions: { attempts: 1 }, fetch: (input, init) => fetch(input, init) } });

describe('@google/genai -> dialect-proxy -> a chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai', speaks: ['chat'], apiKey: 'upstream-secret', retries: { attempts: 0 } },
      {
        server: { apiKeys: ['caller-key'] },
        routes: [
          { model: 'gemini-2.5-pro', backend: 'upstream' },
          { model: 'gemini-*', backend: 'upstream' },
        ],
      },
    );
    ai = client(proxy.url);
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
  });

  test('generateContent: the model from the URL, system instruction and config mapped; the answer in Google shape', async () => {
    upstream.reply({ json: chatAnswer({ content: 'Bonjour!' }) });
    const response = await ai.models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Hello',
      config: { systemInstruction: 'Answer in French.', temperature: 0.2, maxOutputTokens: 64, stopSequences: ['END'] },
    });
    expect(response.text).toBe('Bonjour!');
    expect(response.candidates?.[0]).toMatchObject({ finishReason: FinishReason.STOP, index: 0 });
    expect(response.modelVersion).toBe('gemini-2.5-flash');
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 20,
      candidatesTokenCount: 6,
      cachedContentTokenCount: 16,
      totalTokenCount: 26,
    });
    expect(upstream.requests[0].body).toMatchObject({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Hello' },
      ],
      temperature: 0.2,
      max_completion_tokens: 64,
      stop: ['END'],
    });
  });

  test('generateContentStream: text chunks, the finish reason and usage on the last', async () => {
    upstream.reply({
      sse: [
        chunk({ role: 'assistant', content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, 'length'),
        chunk(null, null, { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }),
        'data: [DONE]\n\n',
      ],
    });
    const texts: string[] = [];
    let last: Awaited<ReturnType<typeof ai.models.generateContent>> | undefined;
    for await (const part of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' })) {
      if (part.text) texts.push(part.text);
      last = part;
    }
    expect(texts.join('')).toBe('Hello');
    expect(last?.candidates?.[0].finishReason).toBe(FinishReason.MAX_TOKENS);
    expect(last?.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 });
    expect(upstream.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  test('a function-calling round trip: functionCall with args and id, then functionResponse as a tool message', async () => {
    upstream.reply({
      json: chatAnswer(
        {
          content: null,
          tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        'tool_calls',
      ),
    });
    const config = {
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['get_weather'] } },
    };
    const first = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Weather in Paris?', config });
    expect(first.functionCalls).toEqual([{ id: 'call_7', name: 'get_weather', args: { city: 'Paris' } }]);
    expect(first.candidates?.[0].finishReason).toBe(FinishReason.STOP);
    expect(upstream.requests[0].body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather.parametersJsonSchema } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });

    upstream.reply({ json: chatAnswer({ content: 'It is 21 degrees in Paris.' }) });
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      first.candidates?.[0].content as Content,
      { role: 'user', parts: [{ functionResponse: { id: 'call_7', name: 'get_weather', response: { temperature: 21 } } }] },
    ];
    const second = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: history, config: { tools: config.tools } });
    expect(second.text).toBe('It is 21 degrees in Paris.');
    expect(upstream.requests[1].body).toMatchObject({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_7', content: '{"temperature":21}' },
      ],
    });
  });

  test("a body as Google's curl examples write it (proto names: system_instruction, generation_config, inline_data.mime_type) is taken", async () => {
    upstream.reply({ json: chatAnswer({ content: 'A red pixel.' }) });
    const response = await fetch(`${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'caller-key' },
      body: JSON.stringify({
        system_instruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ parts: [{ text: 'What is this?' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
        generation_config: { max_output_tokens: 16 },
      }),
    });
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] }).candidates[0].content.parts[0].text,
    ).toBe('A red pixel.');
    expect(upstream.requests[0].body).toMatchObject({
      max_completion_tokens: 16,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ],
    });
  });

  test("an unknown method under Google's prefix is a 404 in Google's shape; under /v1/ only for a caller with Google's key", async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' }).then(
        async (response) => ({ status: response.status, body: (await response.json()) as { error: Record<string, unknown> } }),
      );
    const google = await post('/v1beta/models/gemini-2.5-flash:embedContent', { 'x-goog-api-key': 'caller-key' });
    expect(google).toMatchObject({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } });
    const openai = await post('/v1/models/gpt-4o:embed', { authorization: 'Bearer caller-key' });
    expect(openai).toMatchObject({ status: 404, body: { error: { type: 'invalid_request_error', code: 'unknown_url' } } });
  });

  test('countTokens: an estimate in Google shape, nothing sent upstream', async () => {
    const counted = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'Hello there, how are you today?' });
    expect(counted.totalTokens).toBeGreaterThan(0);
    expect(upstream.requests).toHaveLength(0);
  });

  test('models.get and models.list in Google shape', async () => {
    const model = await ai.models.get({ model: 'gemini-2.5-flash' });
    expect(model.name).toBe('models/gemini-2.5-flash');
    const names: string[] = [];
    for await (const listed of await ai.models.list()) names.push(listed.name ?? '');
    // Patterns are not models: only the routes that name one are listed.
    expect(names).toEqual(['models/gemini-2.5-pro']);
  });

  test("errors are the SDK's ApiError with Google's status: a bad key, an unknown model, a bad field", async () => {
    const wrongKey = client(proxy.url, 'wrong-key');
    await expect(wrongKey.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      message: expect.stringContaining('UNAUTHENTICATED'),
    });
    const unknown = ai.models.generateContent({ model: 'claude-x', contents: 'Hi' });
    await expect(unknown).rejects.toBeInstanceOf(ApiError);
    await expect(unknown).rejects.toMatchObject({ status: 404, message: expect.stringContaining('NOT_FOUND') });
    const bad = ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hi', config: { temperature: 5 } });
    await expect(bad).rejects.toMatchObject({ status: 400, message: expect.stringContaining('generationConfig.temperature') });
    expect(upstream.requests).toHaveLength(0);
  });

  test('an upstream failure mid-stream is a final error chunk the SDK raises, never a silent end', async () => {
    upstream.reply({
      sse: [chunk({ role: 'assistant', content: 'Hel' }), 'data: {"error": {"message": "upstream broke", "type": "server_error"}}\n\n'],
    });
    const texts: string[] = [];
    const reading = (async () => {
      for await (const part of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' }))
        texts.push(part.text ?? '');
    })();
    await expect(reading).rejects.toBeInstanceOf(ApiError);
    expect(texts).toEqual(['Hel']);
  });

  test('the key in ?key= is taken (the SDK sends the header; a raw caller may not)', async () => {
    upstream.reply({ json: chatAnswer({ content: 'ok' }) });
    const response = await fetch(`${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent?key=caller-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    });
    expect(response.status).toBe(200);
    const bad = await fetch(`${proxy.url}/v1beta/models/gemini-2.5-flash:generateContent?key=nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
    });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });
});

describe('@google/genai -> dialect-proxy -> a completions-only backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('the conversation rendered with the chat template; the text read back as a candidate', async () => {
    upstream.reply({
      json: {
        id: 'cmpl-1',
        object: 'text_completion',
        created,
        model: 'up-model',
        choices: [{ index: 0, text: 'Hi!', logprobs: null, finish_reason: 'length' }],
        usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
      },
    });
    const response = await client(proxy.url, 'unused').models.generateContent({
      model: 'any',
      contents: 'Hello',
      config: { systemInstruction: 'Be brief.', maxOutputTokens: 2 },
    });
    expect(response.text).toBe('Hi!');
    expect(response.candidates?.[0].finishReason).toBe(FinishReason.MAX_TOKENS);
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 2, totalTokenCount: 14 });
    expect((upstream.requests[0].body as { prompt: string }).prompt).toContain('Be brief.');
  });
});

describe('@google/genai -> dialect-proxy -> the bundled llama.cpp worker (built-in model)', () => {
  let proxy: RunningServer;
  let ai: GoogleGenAI;

  beforeAll(async () => {
    proxy = await startBuiltinProxy({ parallel: 2 });
    ai = client(proxy.url, 'unused');
  }, 60_000);
  afterAll(async () => {
    await proxy.close();
  });

  test('generateContent, generateContentStream and countTokens on the built-in model', async () => {
    // Greedy: the built-in model samples its end of text now and then; its greedy path runs on.
    const config = { temperature: 0, maxOutputTokens: 6 };
    const response = await ai.models.generateContent({ model: 'gemini-x', contents: 'Hello', config });
    expect(response.candidates?.[0]).toMatchObject({ finishReason: FinishReason.MAX_TOKENS });
    expect(response.usageMetadata?.candidatesTokenCount).toBe(6);
    expect(typeof response.text).toBe('string');

    const chunks = [];
    for await (const part of await ai.models.generateContentStream({ model: 'gemini-x', contents: 'Hello', config })) chunks.push(part);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[chunks.length - 1].candidates?.[0].finishReason).toBe(FinishReason.MAX_TOKENS);

    const counted = await ai.models.countTokens({ model: 'gemini-x', contents: 'Hello there' });
    expect(counted.totalTokens).toBeGreaterThan(0);
  });
});

describe('@google/genai -> dialect-proxy -> an Anthropic backend', () => {
  let anthropic: MockAnthropic;
  let proxy: RunningServer;
  let ai: GoogleGenAI;
  const THOUGHT = 'Paris is in France; look it up.';
  const SIGNATURE = 'EqQBCkYIBxgC-signed-by-anthropic';

  beforeAll(async () => {
    anthropic = await startMockAnthropic();
    proxy = await startProxyFor(anthropic.url, { kind: 'anthropic', apiKey: 'sk-ant-upstream' });
    ai = client(proxy.url, 'unused');
  });
  afterAll(async () => {
    await proxy.close();
    await anthropic.close();
  });

  test('generateContent and generateContentStream: the system instruction as system, the answer in Google shape', async () => {
    anthropic.reply({ message: anthropicMessage({ content: [{ type: 'text', text: 'Bonjour.' }] }) });
    const response = await ai.models.generateContent({
      model: 'claude-sonnet-4-5',
      contents: 'Say hello in French.',
      config: { systemInstruction: 'Be brief.', maxOutputTokens: 32 },
    });
    expect(response.text).toBe('Bonjour.');
    expect(response.candidates?.[0].finishReason).toBe(FinishReason.STOP);
    expect(anthropic.requests[0].body).toMatchObject({
      system: [{ type: 'text', text: 'Be brief.' }],
      max_tokens: 32,
      messages: [{ role: 'user' }],
    });

    anthropic.reply({ events: textStream(['Bon', 'jour.']) });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'claude-sonnet-4-5', contents: 'Again.' }))
      text += chunk.text ?? '';
    expect(text).toBe('Bonjour.');
  });

  test("a function-calling round trip with thinking: the thought comes back to the caller, and Anthropic's signature reaches the backend on the next turn", async () => {
    anthropic.reply({
      message: anthropicMessage({
        content: [
          { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
      }),
    });
    const config = { tools: [{ functionDeclarations: [weather] }], thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } };
    const first = await ai.models.generateContent({ model: 'claude-sonnet-4-5', contents: 'Weather in Paris?', config });
    const parts = first.candidates?.[0].content?.parts ?? [];
    expect(parts).toContainEqual({ text: THOUGHT, thought: true });
    expect(first.functionCalls).toEqual([{ id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } }]);
    // The signature travels to the caller sealed by the proxy, on the call's part.
    expect(parts.find((part) => part.functionCall)?.thoughtSignature).toMatch(/^dpx1\./);

    anthropic.reply({ message: anthropicMessage({ content: [{ type: 'text', text: 'It is 21 degrees.' }] }) });
    const history: Content[] = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      first.candidates?.[0].content as Content,
      { role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'get_weather', response: { temperature: 21 } } }] },
    ];
    const second = await ai.models.generateContent({ model: 'claude-sonnet-4-5', contents: history, config });
    expect(second.text).toBe('It is 21 degrees.');
    const [, assistant] = (anthropic.requests.at(-1)?.body as { messages: Record<string, unknown>[] }).messages;
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: THOUGHT, signature: SIGNATURE },
        { type: 'tool_use', id: 'toolu_1' },
      ],
    });
  });

  test("an overloaded Anthropic backend is the SDK's ApiError 503", async () => {
    anthropic.reply({ status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } });
    const failure = await ai.models.generateContent({ model: 'claude-sonnet-4-5', contents: 'Hi' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect({ status: (failure as ApiError).status, message: (failure as ApiError).message }).toMatchObject({ status: 503 });
  });
});
