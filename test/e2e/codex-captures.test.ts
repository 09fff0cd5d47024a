/**
 * Codex CLI 0.171's own requests (test/e2e/codex-captures/, body and headers as it sent them: function
 * tools, a `namespace` tool, the hosted `web_search`, `client_metadata`, `prompt_cache_key`, `include:
 * [reasoning.encrypted_content]` with `store: false`, developer messages and items with ids,
 * `session-id`, `x-codex-*`, `accept-encoding: zstd,gzip`) replayed against the proxy in front of
 * each backend kind: a strict chat server, a strict completions-only one, a strict Anthropic one (each
 * refuses unknown keys and tool names it does not take) and the bundled worker. Before issue 36 the
 * first request was a 400 (`client_metadata`, then the namespace, then `web_search`). Now: no 4xx
 * anywhere, the drops named (x-dialect-warnings and the log line), the model's call of a namespaced
 * tool comes back with its namespace and name, and the call, sent back in the next request, reaches
 * the backend under the flattened name again. Also the WebSocket upgrade Codex may try first: a 426
 * in OpenAI's error shape, so it falls back to HTTP.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { createDialectProxy } from '../../src/http/middleware.js';
import { startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic.js';
import { sseFrames } from '../helpers/mock-upstream.js';
import { startBuiltinProxy, startProxyFor } from '../helpers/start-proxy.js';
import { chatChunk, startStrictOpenAI, textChunk, TOOL_NAME, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';

type Wire = Record<string, unknown>;

interface Capture {
  path: string;
  headers: Record<string, string>;
  body: Wire & { input: Wire[] };
}

const capture = (name: string) => JSON.parse(readFileSync(new URL(`codex-captures/${name}`, import.meta.url), 'utf8')) as Capture;
const first = capture('tool-loop-1-request.json');
const second = capture('tool-loop-2-tool-result.json');

/** What the mock model does on its first turn: Codex's own shell call, and a call of a tool of the multi_agent_v1 namespace. */
const EXEC_ARGS = '{"cmd":"printf codex-ok > out.txt"}';
const WAIT_ARGS = '{"targets":["agent-1"]}';
const WAIT_FLAT = 'multi_agent_v1__wait_agent';

/** Sends a captured request (its headers too) and reads the Responses stream: status, headers, the events. */
async function replay(url: string, body: Wire, headers: Record<string, string>) {
  const response = await fetch(`${url}/v1/responses`, { method: 'POST', headers, body: JSON.stringify(body) });
  const events = sseFrames(await response.text()) as Wire[];
  const last = events.at(-1) as { type?: string; response?: { output?: Wire[] } } | undefined;
  return { status: response.status, headers: response.headers, events, last };
}

/** The second turn as Codex would send it after running both calls: the verbatim capture, then the namespaced call and its output. */
function thirdTurn(waitCall: Wire): Wire {
  return {
    ...second.body,
    input: [...second.body.input, waitCall, { type: 'function_call_output', call_id: waitCall.call_id, output: 'agent-1: done' }],
  };
}

describe('Codex CLI captures on every backend kind', () => {
  let chat: StrictOpenAI;
  let completions: StrictOpenAI;
  let anthropic: MockAnthropic;
  const anthropicRefusals: string[] = [];
  const proxies: Record<string, RunningServer> = {};

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
            tool_calls: [{ index: 0, id: 'call_exec', type: 'function', function: { name: 'exec_command', arguments: EXEC_ARGS } }],
          }),
          chatChunk({ tool_calls: [{ index: 1, id: 'call_wait', type: 'function', function: { name: WAIT_FLAT, arguments: '' } }] }),
          chatChunk({ tool_calls: [{ index: 1, function: { arguments: WAIT_ARGS } }] }),
          chatChunk({}, 'tool_calls'),
          chatChunk(null, null, { prompt_tokens: 9000, completion_tokens: 30, total_tokens: 9030 }),
          'data: [DONE]\n\n',
        ],
      };
    });
    completions = await startStrictOpenAI((request) => {
      if ((request.body as { prompt: string }).prompt.includes('<tool_response>'))
        return { sse: [textChunk('Done.'), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
      const calls =
        `<tool_call>\n{"name": "exec_command", "arguments": ${EXEC_ARGS}}\n</tool_call>\n` +
        `<tool_call>\n{"name": "${WAIT_FLAT}", "arguments": ${WAIT_ARGS}}\n</tool_call>`;
      return { sse: [textChunk(calls.slice(0, 40)), textChunk(calls.slice(40)), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
    });
    anthropic = await startMockAnthropic((request) => {
      const body = request.body as { tools?: Wire[]; messages: { content: unknown }[] };
      const bad = (body.tools ?? []).find((tool) => !TOOL_NAME.test(String(tool.name)));
      if (bad) {
        anthropicRefusals.push(`tools: name '${String(bad.name)}'`);
        return {
          status: 400,
          error: { type: 'invalid_request_error', message: `tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'` },
        };
      }
      const last = body.messages.at(-1)?.content;
      const answered = Array.isArray(last) && last.some((block) => (block as Wire).type === 'tool_result');
      const start = {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 9000, output_tokens: 1 },
        },
      };
      const end = (reason: string) => [
        { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 30 } },
        { type: 'message_stop' },
      ];
      if (answered)
        return {
          events: [
            start,
            { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
            { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
            { type: 'content_block_stop', index: 0 },
            ...end('end_turn'),
          ],
        };
      const call = (index: number, id: string, name: string, json: string) => [
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } },
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json } },
        { type: 'content_block_stop', index },
      ];
      return {
        events: [
          start,
          ...call(0, 'toolu_exec', 'exec_command', EXEC_ARGS),
          ...call(1, 'toolu_wait', WAIT_FLAT, WAIT_ARGS),
          ...end('tool_use'),
        ],
      };
    });
    proxies.chat = await startProxyFor(chat.url, { kind: 'openai', speaks: ['chat'], apiKey: 'sk-upstream' });
    proxies.completions = await startProxyFor(completions.url, { kind: 'openai', speaks: ['completions'], apiKey: 'sk-upstream' });
    proxies.anthropic = await startProxyFor(anthropic.url, { kind: 'anthropic', apiKey: 'sk-ant-upstream' });
  });

  afterAll(async () => {
    await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
    await Promise.all([chat?.close(), completions?.close(), anthropic?.close()]);
  });

  /** The upstream requests each kind's server received, and how the flattened call shows in them. */
  const kinds = {
    chat: { requests: () => chat.requests, sentBack: (body: Wire) => JSON.stringify(body.messages).includes(`"name":"${WAIT_FLAT}"`) },
    completions: { requests: () => completions.requests, sentBack: (body: Wire) => String(body.prompt).includes(`"name": "${WAIT_FLAT}"`) },
    anthropic: {
      requests: () => anthropic.requests,
      sentBack: (body: Wire) => JSON.stringify(body.messages).includes(`"name":"${WAIT_FLAT}"`),
    },
  } as const;

  test.each(Object.keys(kinds) as (keyof typeof kinds)[])(
    '%s backend: the tool loop runs with no 4xx, and the namespaced call is restored, then flattened again',
    async (kind) => {
      const { url } = proxies[kind];
      const before = kinds[kind].requests().length;

      const turn1 = await replay(url, first.body, first.headers);
      expect(turn1.status).toBe(200);
      // Codex accepts zstd or gzip: the proxy answers in neither (plain SSE), which every client reads.
      expect(turn1.headers.get('content-encoding')).toBeNull();
      expect(turn1.headers.get('x-dialect-warnings')).toMatch(/tools\[8\] dropped: 'web_search', a hosted tool/);
      expect(turn1.headers.get('x-dialect-warnings')).toMatch(/client_metadata not sent/);
      expect(turn1.last?.type).toBe('response.completed');
      const calls = (turn1.last?.response?.output ?? []).filter((item) => item.type === 'function_call');
      expect(calls).toEqual([
        expect.objectContaining({ name: 'exec_command', arguments: EXEC_ARGS }),
        expect.objectContaining({ namespace: 'multi_agent_v1', name: 'wait_agent', arguments: WAIT_ARGS }),
      ]);
      expect(calls[0]).not.toHaveProperty('namespace');
      // The streamed item events carry the caller's names too.
      const added = turn1.events.filter((event) => event.type === 'response.output_item.added').map((event) => event.item as Wire);
      expect(added).toContainEqual(expect.objectContaining({ type: 'function_call', namespace: 'multi_agent_v1', name: 'wait_agent' }));

      const turn2 = await replay(url, second.body, second.headers);
      expect(turn2.status).toBe(200);
      expect(turn2.last?.type).toBe('response.completed');

      // The namespaced call as Codex sends it back: the output item, with its id, status and namespace.
      const turn3 = await replay(url, thirdTurn({ ...calls[1], status: 'completed' }), second.headers);
      expect(turn3.status).toBe(200);
      expect(turn3.last?.type).toBe('response.completed');

      const sent = kinds[kind].requests().slice(before);
      expect(sent).toHaveLength(3);
      expect(kinds[kind].sentBack(sent[2].body as Wire)).toBe(true);
      expect(kind === 'anthropic' ? anthropicRefusals : (kind === 'chat' ? chat : completions).refusals).toEqual([]);
      if (kind === 'chat') {
        // prompt_cache_key is the chat backend's cache key; the flattened tools are names it takes.
        expect(sent[0].body).toMatchObject({ prompt_cache_key: first.body.prompt_cache_key, parallel_tool_calls: true });
        const names = ((sent[0].body as Wire).tools as { function: { name: string } }[]).map((tool) => tool.function.name);
        expect(names).toEqual(expect.arrayContaining(['exec_command', WAIT_FLAT, 'multi_agent_v1__spawn_agent']));
        expect(names).not.toContain('web_search');
      }
    },
  );

  test("the drops are in the request's log line too, as x-dialect-warnings says them", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({
      server: { warmUpMs: 0 },
      backends: { up: { kind: 'openai', url: chat.url, speaks: ['chat'], apiKey: 'sk-upstream' } },
      routes: [{ model: '*', backend: 'up' }],
    });
    const proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ json: true, stream: sink }) });
    try {
      const { status, headers } = await replay(proxy.url, first.body, first.headers);
      expect(status).toBe(200);
      const logged = lines.map((line) => JSON.parse(line) as Wire).find((line) => line.message === 'request');
      expect(logged).toMatchObject({
        status: 200,
        warnings: expect.arrayContaining([expect.stringMatching(/^tools\[8\] dropped: 'web_search'/)]),
      });
      expect((logged?.warnings as string[]).join('; ')).toBe(headers.get('x-dialect-warnings'));
    } finally {
      await proxy.close();
    }
  });

  test('the bundled worker takes the same requests (a context that holds them)', async () => {
    const worker = await startBuiltinProxy({ contextSize: 49_152 });
    try {
      // A few tokens are enough: the built-in model is tiny, and 40 KB of prompt take seconds on a shared CPU.
      for (const turn of [first, second]) {
        const { status, last } = await replay(worker.url, { ...turn.body, max_output_tokens: 8 }, turn.headers);
        expect(status).toBe(200);
        expect(['response.completed', 'response.incomplete']).toContain(last?.type);
      }
    } finally {
      await worker.close();
    }
  }, 240_000);
});

/** A raw WebSocket opening handshake (RFC 6455 section 4.1), as Codex sends it: the answer's status, headers and body. */
function upgrade(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status?: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/responses`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', () => reject(new Error('the proxy switched protocols')));
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (text: string) => (body += text));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a WebSocket upgrade on /v1/responses', () => {
  test('standalone server: 426 in OpenAI error shape, so the client falls back to HTTP; a plain GET is still a 405', async () => {
    const proxy = await startProxyFor('http://127.0.0.1:9/v1', { kind: 'openai', speaks: ['chat'], apiKey: 'k' });
    try {
      const answer = await upgrade(proxy.url);
      expect(answer.status).toBe(426);
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          message: expect.stringMatching(/^\/v1\/responses is served over HTTP only/),
          type: 'invalid_request_error',
          param: null,
          code: 'websocket_not_supported',
        },
      });
      expect((await fetch(`${proxy.url}/v1/responses`)).status).toBe(405);
      // The server still answers over HTTP after it.
      expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  test('behind API keys, an upgrade without one is a 401 first', async () => {
    const proxy = await startProxyFor(
      'http://127.0.0.1:9/v1',
      { kind: 'openai', speaks: ['chat'], apiKey: 'k' },
      { server: { apiKeys: ['proxy-key'] } },
    );
    try {
      expect((await upgrade(proxy.url)).status).toBe(401);
      expect((await upgrade(proxy.url, { authorization: 'Bearer proxy-key' })).status).toBe(426);
    } finally {
      await proxy.close();
    }
  });

  test('the Express router in a host app: 426 too', async () => {
    const router = createDialectProxy({
      backends: { up: { kind: 'openai', url: 'http://127.0.0.1:9/v1', speaks: ['chat'], apiKey: 'k' } },
      routes: [{ model: '*', backend: 'up' }],
    });
    const app = express();
    app.use('/proxy', router);
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await router.ready;
      const answer = await upgrade(`http://127.0.0.1:${(server.address() as AddressInfo).port}/proxy`);
      expect(answer.status).toBe(426);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'websocket_not_supported' } });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await router.close();
    }
  });
});
