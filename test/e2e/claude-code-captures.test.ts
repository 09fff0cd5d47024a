/**
 * Claude Code 2.1.328's own requests (test/e2e/claude-code-captures/, body and headers as it sent them:
 * `?beta=true`, seven `anthropic-beta` values, a `role: system` message among the messages, adaptive
 * thinking with `display: omitted`, `output_config.effort`, `context_management`, `metadata.user_id`,
 * tools with `defer_loading`) replayed against the proxy in front of each backend kind: a strict chat
 * server, a strict completions-only one (both refuse keys OpenAI does not know), a strict Anthropic one
 * (it refuses `context_management` without its beta in `anthropic-beta`, as the API does), and the
 * bundled worker as config/default.yaml starts it. Before issue 36: the anthropic backend answered 400
 * (the field went without the caller's beta header), the completions-only one 400
 * (`output_config.effort`), the default worker 400 (its context was 2048 tokens). Now no request is
 * refused: each answers 200, the proxy logs no 4xx, and what a backend cannot take is named in
 * `x-dialect-warnings`. A prompt longer than the worker's context is a 400 naming `contextSize`.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic.js';
import { startLoggedProxy, type LoggedProxy } from '../helpers/start-logged-proxy.js';
import { startBuiltinProxy } from '../helpers/start-proxy.js';
import { chatChunk, startStrictOpenAI, textChunk, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';

type Wire = Record<string, unknown>;

interface Capture {
  path: string;
  headers: Record<string, string>;
  body: Wire;
}

const capture = (name: string) => JSON.parse(readFileSync(new URL(`claude-code-captures/${name}`, import.meta.url), 'utf8')) as Capture;
const captures = [capture('tool-loop-1-request.json'), capture('tool-loop-2-tool-result.json')];
const callerBetas = captures[0].headers['anthropic-beta'].split(',');

/** The proxy's key stands where the capture says `<the proxy key>`; the rest of the headers go as Claude Code sent them. */
const KEY = 'proxy-key';
const headersOf = ({ headers }: Capture) => ({ ...headers, 'x-api-key': KEY });

/** Replays a capture (its path with `?beta=true`, its headers) and reads the named events of the stream. */
async function replay(url: string, request: Capture, body: Wire = request.body) {
  const response = await fetch(url + request.path, { method: 'POST', headers: headersOf(request), body: JSON.stringify(body) });
  const text = await response.text();
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Wire);
  return { status: response.status, text, events, warnings: response.headers.get('x-dialect-warnings') ?? '' };
}

const WRITE_ARGS = JSON.stringify({ file_path: '/home/user/project/out.txt', content: 'written through dialect-proxy\n' });

describe('Claude Code captures on every remote backend kind', () => {
  let chat: StrictOpenAI;
  let completions: StrictOpenAI;
  let anthropic: MockAnthropic;
  const proxies: Record<string, LoggedProxy> = {};

  beforeAll(async () => {
    chat = await startStrictOpenAI((request) => {
      const messages = (request.body as { messages: Wire[] }).messages;
      if (messages.at(-1)?.role === 'tool')
        return { sse: [chatChunk({ role: 'assistant', content: 'Done.' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'] };
      return {
        sse: [
          chatChunk({
            role: 'assistant',
            content: null,
            tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'Write', arguments: WRITE_ARGS } }],
          }),
          chatChunk({}, 'tool_calls'),
          chatChunk(null, null, { prompt_tokens: 12000, completion_tokens: 30, total_tokens: 12030 }),
          'data: [DONE]\n\n',
        ],
      };
    });
    completions = await startStrictOpenAI((request) => {
      if ((request.body as { prompt: string }).prompt.includes('<tool_response>'))
        return { sse: [textChunk('Done.'), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
      const call = `<tool_call>\n{"name": "Write", "arguments": ${WRITE_ARGS}}\n</tool_call>`;
      return { sse: [textChunk(call.slice(0, 30)), textChunk(call.slice(30)), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
    });
    anthropic = await startMockAnthropic((request) => {
      const messages = (request.body as { messages: { content: unknown }[] }).messages;
      const last = messages.at(-1)?.content;
      const answered = Array.isArray(last) && last.some((block) => (block as Wire).type === 'tool_result');
      const block: Wire = answered ? { type: 'text', text: '' } : { type: 'tool_use', id: 'toolu_w', name: 'Write', input: {} };
      const delta: Wire = answered ? { type: 'text_delta', text: 'Done.' } : { type: 'input_json_delta', partial_json: WRITE_ARGS };
      return {
        events: [
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-test',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 12000, output_tokens: 1 },
            },
          },
          { type: 'content_block_start', index: 0, content_block: block },
          { type: 'content_block_delta', index: 0, delta },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: answered ? 'end_turn' : 'tool_use', stop_sequence: null },
            usage: { output_tokens: 30 },
          },
          { type: 'message_stop' },
        ],
      };
    });
    const server = { apiKeys: [KEY] };
    const route = [{ model: '*', backend: 'up' }];
    proxies.chat = await startLoggedProxy({
      server,
      backends: { up: { kind: 'openai', url: chat.url, apiKey: 'sk-up', speaks: ['chat'] } },
      routes: route,
    });
    proxies.completions = await startLoggedProxy({
      server,
      backends: { up: { kind: 'openai', url: completions.url, apiKey: 'sk-up', speaks: ['completions'] } },
      routes: route,
    });
    proxies.anthropic = await startLoggedProxy({
      server,
      backends: { up: { kind: 'anthropic', url: anthropic.url, apiKey: 'sk-ant-up' } },
      routes: route,
    });
  });

  afterAll(async () => {
    await Promise.all(Object.values(proxies).map(({ proxy }) => proxy.close()));
    await Promise.all([chat?.close(), completions?.close(), anthropic?.close()]);
  });

  const upstreamOf = { chat: () => chat.requests, completions: () => completions.requests, anthropic: () => anthropic.requests };

  test.each(['chat', 'completions', 'anthropic'] as const)(
    '%s backend: both requests of the tool loop answered 200, no 4xx in the log, none refused upstream',
    async (kind) => {
      const { proxy, statuses } = proxies[kind];
      const turns = [];
      for (const request of captures) turns.push(await replay(proxy.url, request));
      for (const turn of turns) {
        expect({ status: turn.status, body: turn.status === 200 ? '' : turn.text }).toEqual({ status: 200, body: '' });
        expect(turn.events.at(-1)).toEqual({ type: 'message_stop' });
        expect(turn.events.filter((event) => event.type === 'error')).toEqual([]);
      }
      // The model's Write call reaches Claude Code whole, as a tool_use block.
      const started = turns[0].events.find((event) => event.type === 'content_block_start') as { content_block: Wire };
      expect(started.content_block).toMatchObject({ type: 'tool_use', name: 'Write' });
      expect(statuses()).toEqual([200, 200]);
      expect(kind === 'anthropic' ? [] : (kind === 'chat' ? chat : completions).refusals).toEqual([]);
      expect(upstreamOf[kind]()).toHaveLength(2);
    },
  );

  test('anthropic backend: the caller anthropic-beta goes with context_management; message_start says the prompt size', async () => {
    const sent = anthropic.requests.slice(-2);
    for (const request of sent) {
      const betas = String(request.headers['anthropic-beta']).split(',');
      expect(betas).toEqual(expect.arrayContaining(callerBetas));
      expect(new Set(betas).size).toBe(betas.length);
      expect(request.body).toMatchObject({ context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] } });
    }
    const turn = await replay(proxies.anthropic.proxy.url, captures[0]);
    expect(turn.events[0]).toMatchObject({ type: 'message_start', message: { usage: { input_tokens: 12000 } } });
  });

  test('chat backend: context_management dropped with a warning, metadata.user_id as user, output_config.effort as reasoning_effort', async () => {
    const turn = await replay(proxies.chat.proxy.url, captures[0]);
    expect(turn.warnings).toMatch(/context_management not sent: backend "up" has no such field/);
    const body = chat.requests.at(-1)?.body as Wire;
    expect(body).not.toHaveProperty('context_management');
    expect(body).toMatchObject({ user: (captures[0].body.metadata as Wire).user_id, reasoning_effort: 'high' });
    // The system message Claude Code puts among the messages stays where it was.
    expect((body.messages as Wire[]).map((message) => message.role)).toEqual(['system', 'user', 'system']);
  });

  test('completions-only backend: the thinking Claude Code offers is left out with a warning, not refused', async () => {
    const turn = await replay(proxies.completions.proxy.url, captures[0]);
    expect(turn.warnings).toMatch(
      /output_config\.effort not sent: backend "up" takes no effort "high" \(a thinking setting offered, not required/,
    );
    expect(completions.requests.at(-1)?.body).not.toHaveProperty('reasoning_effort');
  });
});

describe('Claude Code captures on the bundled worker', () => {
  test('config/default.yaml: both requests answered 200; message_start says the prompt size in tokens, which fits the context', async () => {
    const config = loadConfig('config/default.yaml', {});
    const contextSize = (config.backends.local as unknown as { contextSize: number }).contextSize;
    const { proxy, statuses } = await startLoggedProxy('config/default.yaml');
    try {
      for (const request of captures) {
        // As sent but for max_tokens: the built-in model's letter soup may run on to Claude Code's 32000 (minutes here).
        const turn = await replay(proxy.url, request, { ...request.body, max_tokens: 64 });
        expect({ status: turn.status, body: turn.status === 200 ? '' : turn.text }).toEqual({ status: 200, body: '' });
        expect(turn.events.at(-1)).toEqual({ type: 'message_stop' });
        const usage = (turn.events[0] as { message: { usage: { input_tokens: number } } }).message.usage;
        // About one token a byte (the built-in model's vocabulary is bytes): some 49,000 tokens.
        expect(usage.input_tokens).toBeGreaterThan(40_000);
        expect(usage.input_tokens).toBeLessThan(contextSize);
      }
      expect(statuses().filter((status) => status >= 400)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 300_000);

  test('a prompt longer than the context: a 400 naming contextSize and the prompt size in tokens', async () => {
    const proxy = await startBuiltinProxy({ contextSize: 8192, parallel: 1 });
    try {
      const turn = await replay(proxy.url, captures[0]);
      expect(turn.status).toBe(400);
      expect(JSON.parse(turn.text)).toEqual({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: expect.stringMatching(
            /^messages: The prompt has \d{5} tokens, more than the model's context holds: contextSize 8192 tokens \(raise contextSize/,
          ),
        },
      });
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
