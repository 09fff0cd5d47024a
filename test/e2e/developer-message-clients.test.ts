/**
 * The clients people use send the system prompt of a reasoning model (o-series,
 * gpt-5) as a `developer` message: the `openai` SDK (stream helper and runTools),
 * LangChain's ChatOpenAI, and the AI SDK's openai-compatible provider (here with
 * `transformRequestBody` doing what @ai-sdk/openai's `systemMessageMode: 'developer'` does).
 * On a completions-only backend the instruction reaches the rendered prompt as the
 * template's system turn, never as a `<|im_start|>developer` turn; on the bundled
 * worker, as the system turn of the GGUF's own template.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startBuiltinProxy, startProxyFor } from '../helpers/start-proxy.js';

const SYSTEM_TURN = '<|im_start|>system\nAnswer in French.<|im_end|>\n';
const created = 1700000000;

/** A completions upstream: the tool call first when tools were rendered and no result is in the prompt yet. */
function completions(request: RecordedRequest): MockReply {
  const body = request.body as { prompt: string; stream?: boolean };
  const text =
    body.prompt.includes('<tools>') && !body.prompt.includes('<tool_response>')
      ? '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
      : 'Bonjour !';
  const head = { id: 'cmpl-1', object: 'text_completion', created, model: 'base' };
  if (body.stream) {
    return {
      sse: [
        `data: ${JSON.stringify({ ...head, choices: [{ index: 0, text, logprobs: null, finish_reason: null }] })}\n\n`,
        `data: ${JSON.stringify({ ...head, choices: [{ index: 0, text: '', logprobs: null, finish_reason: 'stop' }] })}\n\n`,
        `data: ${JSON.stringify({ ...head, choices: [], usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 } })}\n\n`,
        'data: [DONE]\n\n',
      ],
    };
  }
  return {
    json: {
      ...head,
      choices: [{ index: 0, text, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 },
    },
  };
}

describe('a developer message from the clients, on a completions-only backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  /** The chat bodies the clients sent the proxy. */
  const sent: Record<string, unknown>[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(input, init);
  };

  beforeAll(async () => {
    upstream = await startMockUpstream(completions);
    proxy = await startProxyFor(upstream.url, { kind: 'fireworks', speaks: ['completions'] });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    sent.length = 0;
  });

  const prompts = () => upstream.requests.map((request) => (request.body as { prompt: string }).prompt);
  const roles = () => sent.map((body) => (body.messages as { role: string }[]).map((message) => message.role));

  test('openai SDK: chat.completions.stream', async () => {
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0, fetch: recordingFetch });
    const stream = client.chat.completions.stream({
      model: 'o3-mini',
      messages: [
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    const answer = await stream.finalChatCompletion();
    expect(answer.choices[0].message.content).toBe('Bonjour !');
    expect(roles()).toEqual([['developer', 'user']]);
    expect(prompts()).toEqual([`${SYSTEM_TURN}<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n`]);
  });

  test('openai SDK: runTools, the instruction in every turn of the loop', async () => {
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0, fetch: recordingFetch });
    const runner = client.chat.completions.runTools({
      model: 'gpt-5',
      messages: [
        { role: 'developer', content: 'Answer in French.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
            function: (args: { city: string }) => ({ city: args.city, sky: 'sunny' }),
            parse: JSON.parse,
          },
        },
      ],
    });
    expect(await runner.finalContent()).toBe('Bonjour !');
    expect(prompts()).toHaveLength(2);
    for (const prompt of prompts()) {
      expect(prompt.startsWith('<|im_start|>system\nAnswer in French.\n\n# Tools')).toBe(true);
      expect(prompt).not.toContain('developer');
    }
    expect(prompts()[1]).toContain('<tool_response>\n{"city":"Paris","sky":"sunny"}\n</tool_response>');
  });

  test("LangChain's ChatOpenAI sends a reasoning model's system message as developer", async () => {
    const model = new ChatOpenAI({
      model: 'o3-mini',
      apiKey: 'k',
      maxRetries: 0,
      configuration: { baseURL: `${proxy.url}/v1`, fetch: recordingFetch },
    });
    const answer = await model.invoke([new SystemMessage('Answer in French.'), new HumanMessage('Hi')]);
    expect(answer.content).toBe('Bonjour !');
    expect(roles()).toEqual([['developer', 'user']]);
    expect(prompts()[0].startsWith(SYSTEM_TURN)).toBe(true);
  });

  test("the AI SDK's openai-compatible provider, whole and streamed", async () => {
    const provider = createOpenAICompatible({
      name: 'proxy',
      baseURL: `${proxy.url}/v1`,
      apiKey: 'k',
      fetch: recordingFetch,
      transformRequestBody: (body) => ({
        ...body,
        messages: (body.messages as { role: string }[]).map((message) =>
          message.role === 'system' ? { ...message, role: 'developer' } : message,
        ),
      }),
    });
    const whole = await generateText({ model: provider('o3-mini'), system: 'Answer in French.', prompt: 'Hi', maxRetries: 0 });
    expect(whole.text).toBe('Bonjour !');
    const streamed = streamText({ model: provider('o3-mini'), system: 'Answer in French.', prompt: 'Hi', maxRetries: 0 });
    expect(await streamed.text).toBe('Bonjour !');
    expect(roles()).toEqual([
      ['developer', 'user'],
      ['developer', 'user'],
    ]);
    for (const prompt of prompts()) expect(prompt.startsWith(SYSTEM_TURN)).toBe(true);
  });
});

describe("a developer message on the bundled worker: the GGUF's own template", () => {
  let proxy: RunningServer;
  beforeAll(async () => {
    process.env.DIALECT_PROXY_CACHE ??= mkdtempSync(path.join(tmpdir(), 'developer-'));
    proxy = await startBuiltinProxy();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
  });

  test('rendered as its system turn (dry run: the prompt the worker would get)', async () => {
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-dialect-dry-run': '1' },
      body: JSON.stringify({
        model: 'o3-mini',
        messages: [
          { role: 'developer', content: 'Answer in French.' },
          { role: 'user', content: 'Hi' },
        ],
      }),
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).toContain(JSON.stringify(`${SYSTEM_TURN}<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n`).slice(1, -1));
    expect(text).not.toContain('<|im_start|>developer');
  });
});
