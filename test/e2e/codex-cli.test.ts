/**
 * The real Codex CLI (0.171, the native binary of the @openai/codex npm package), headless (`codex
 * exec --json`, stdin closed), with a provider whose base_url is the proxy and `wire_api =
 * "responses"`, in front of each remote backend kind: a strict chat server, a strict completions-only
 * one and a strict Anthropic one (test/helpers/strict-openai-upstream.ts, mock-anthropic.ts), each
 * with a mock model that calls Codex's shell tool (`exec_command`), then answers. Before issue 36 the
 * first request was a 400 (`client_metadata`). Now the loop runs: the command runs on the client, its
 * output goes back upstream as the call's result, the answer reaches Codex, `model_reasoning_effort`
 * reaches a backend that takes an effort (the completions-only one goes without: offered, not forced),
 * an Anthropic thinking signature comes back on the next turn (sealed in `encrypted_content`), and no request (the server's own record of every answer)
 * is answered 4xx. Codex 0.171 with a custom provider asks for nothing but `POST /v1/responses` (no
 * model list, no WebSocket).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProxyFor } from '../helpers/start-proxy.js';
import { startMockAnthropic, textStream, type MockAnthropic } from '../helpers/mock-anthropic.js';
import type { RecordedRequest } from '../helpers/mock-upstream.js';
import { chatChunk, startStrictOpenAI, textChunk, TOOL_NAME, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';

const require = createRequire(import.meta.url);
/** The CLI's launcher (it starts the native binary of this platform). */
const codexBin = path.join(path.dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `codex exec` as the capture README runs it: a scratch CODEX_HOME, no network but the proxy, no terminal. */
function codexExec({
  proxyUrl,
  cwd,
  home,
  prompt,
  effort,
}: {
  proxyUrl: string;
  cwd: string;
  home: string;
  prompt: string;
  effort?: string;
}): Promise<Run> {
  const args = [
    codexBin,
    'exec',
    '--skip-git-repo-check',
    '--json',
    '-s',
    'danger-full-access',
    '-m',
    'gpt-5.1-codex',
    '-c',
    'model_provider="dp"',
    '-c',
    'model_providers.dp.name="dp"',
    '-c',
    `model_providers.dp.base_url="${proxyUrl}/v1"`,
    '-c',
    'model_providers.dp.env_key="DP_KEY"',
    '-c',
    'model_providers.dp.wire_api="responses"',
    ...(effort ? ['-c', `model_reasoning_effort="${effort}"`] : []),
    prompt,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        CODEX_HOME: home,
        DP_KEY: 'sk-test',
        // Anything but the proxy (on 127.0.0.1, not proxied) goes to a closed port.
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '127.0.0.1,localhost',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const EXEC = '{"cmd":"printf codex-ok > out.txt"}';
const ANSWER = 'The file is written.';

/** A strict chat server whose model calls exec_command, then answers once the call's result is in. */
function chatModel(): Promise<StrictOpenAI> {
  return startStrictOpenAI((request) => {
    const messages = (request.body as { messages: { role: string }[] }).messages;
    if (messages.at(-1)?.role === 'tool')
      return { sse: [chatChunk({ role: 'assistant', content: ANSWER }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'] };
    const call = { index: 0, id: 'call_exec', type: 'function', function: { name: 'exec_command', arguments: EXEC } };
    return { sse: [chatChunk({ role: 'assistant', content: null, tool_calls: [call] }), chatChunk({}, 'tool_calls'), 'data: [DONE]\n\n'] };
  });
}

/** The same model behind a completions-only server: the proxy renders the prompt and reads the <tool_call> back. */
function completionsModel(): Promise<StrictOpenAI> {
  return startStrictOpenAI((request) => {
    const answered = (request.body as { prompt: string }).prompt.includes('<tool_response>');
    const text = answered ? ANSWER : `<tool_call>\n{"name": "exec_command", "arguments": ${EXEC}}\n</tool_call>`;
    return { sse: [textChunk(text), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
  });
}

const THOUGHT = 'A printf will write it.';
const SIGNATURE = 'EqQBCkYIBxgCsigned-by-the-backend';

/** The same model behind a strict Anthropic server. */
function anthropicModel(): Promise<MockAnthropic> {
  return startMockAnthropic((request) => {
    const last = (request.body as { messages: { content: unknown }[] }).messages.at(-1)?.content;
    if (Array.isArray(last) && last.some((block) => (block as { type?: string }).type === 'tool_result'))
      return { events: textStream([ANSWER]) };
    const [start] = textStream([]);
    // Asked to think, it thinks first, signed: the signature must come back with the next turn (Codex keeps no state).
    const thinks = (request.body as { thinking?: unknown }).thinking !== undefined;
    const thinking = thinks
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: THOUGHT } },
          { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
          { type: 'content_block_stop', index: 0 },
        ]
      : [];
    const at = thinking.length ? 1 : 0;
    const events = [
      start,
      ...thinking,
      { type: 'content_block_start', index: at, content_block: { type: 'tool_use', id: 'toolu_exec', name: 'exec_command', input: {} } },
      { type: 'content_block_delta', index: at, delta: { type: 'input_json_delta', partial_json: EXEC } },
      { type: 'content_block_stop', index: at },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
      { type: 'message_stop' },
    ];
    return { events };
  });
}

interface Kind {
  start(): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void>; refusals?: unknown[] }>;
  backend: Record<string, unknown>;
  /** The call's result, as the backend received it in the second request. */
  result(body: Record<string, unknown>): string;
  /** Where Codex's `model_reasoning_effort="high"` shows in the backend's body (run without it where the backend takes no effort). */
  effort?: Record<string, unknown>;
}

const KINDS: Record<string, Kind> = {
  chat: {
    start: chatModel,
    backend: { kind: 'openai', speaks: ['chat'], apiKey: 'sk-upstream' },
    result: (body) => JSON.stringify((body.messages as unknown[]).at(-1)),
    effort: { reasoning_effort: 'high' },
  },
  'completions-only': {
    start: completionsModel,
    backend: { kind: 'openai', speaks: ['completions'], apiKey: 'sk-upstream' },
    result: (body) => String(body.prompt).slice(String(body.prompt).lastIndexOf('<tool_response>')),
    // No effort to set there: Codex's is offered, so it goes unsent with a warning (it was a 400).
    effort: {},
  },
  anthropic: {
    start: anthropicModel,
    backend: { kind: 'anthropic', apiKey: 'sk-ant-upstream' },
    result: (body) => JSON.stringify((body.messages as unknown[]).at(-1)),
    effort: { thinking: { type: 'enabled' } },
  },
};

describe('Codex CLI, headless, through the proxy', () => {
  test.each(Object.keys(KINDS))(
    '%s backend: the shell command runs on the client, its output goes upstream, the answer comes back; no 4xx',
    async (name) => {
      const kind = KINDS[name];
      const upstream = await kind.start();
      const proxy = await startProxyFor(upstream.url, kind.backend);
      const answered: { method: string; url: string; status: number }[] = [];
      proxy.server.on('request', (req, res) => {
        res.once('finish', () => answered.push({ method: req.method ?? '', url: req.url ?? '', status: res.statusCode }));
      });
      const work = mkdtempSync(path.join(tmpdir(), 'codex-work-'));
      const home = mkdtempSync(path.join(tmpdir(), 'codex-home-'));
      try {
        const run = await codexExec({
          proxyUrl: proxy.url,
          cwd: work,
          home,
          prompt: 'RUN_CMD printf codex-ok > out.txt',
          ...(kind.effort ? { effort: 'high' } : {}),
        });
        const events = run.stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { type: string; item?: Record<string, unknown> });
        expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
        // The command ran on the client...
        expect(readFileSync(path.join(work, 'out.txt'), 'utf8')).toBe('codex-ok');
        expect(events).toContainEqual(
          expect.objectContaining({ type: 'item.completed', item: expect.objectContaining({ type: 'command_execution', exit_code: 0 }) }),
        );
        // ...its output went back upstream as the answer to the call...
        expect(upstream.requests).toHaveLength(2);
        expect(kind.result(upstream.requests[1].body as Record<string, unknown>)).toMatch(/exited with code 0/);
        // ...and the model's answer reached Codex. No request was refused, by the proxy or the strict backend.
        expect(events).toContainEqual({ type: 'item.completed', item: expect.objectContaining({ type: 'agent_message', text: ANSWER }) });
        expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
        expect(answered.filter((entry) => entry.status >= 400)).toEqual([]);
        expect(answered.map((entry) => `${entry.method} ${entry.url}`)).toEqual(['POST /v1/responses', 'POST /v1/responses']);
        expect(upstream.refusals ?? []).toEqual([]);
        if (kind.effort) expect(upstream.requests[0].body).toMatchObject(kind.effort);
        if (name === 'anthropic') {
          // Stateless (store: false): the reasoning came back sealed in encrypted_content, and with it the signature.
          const assistant = (upstream.requests[1].body as { messages: { role: string; content: unknown }[] }).messages.at(-2);
          expect(assistant).toMatchObject({
            role: 'assistant',
            content: [{ type: 'thinking', thinking: THOUGHT, signature: SIGNATURE }, { type: 'tool_use' }],
          });
        }
        if (name === 'chat') {
          // Codex's namespace tools under names the backend takes; its hosted web_search left out.
          const names = (upstream.requests[0].body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name);
          expect(names).toContain('exec_command');
          expect(names.some((tool) => tool.includes('__'))).toBe(true);
          expect(names.every((tool) => TOOL_NAME.test(tool))).toBe(true);
          expect(names).not.toContain('web_search');
        }
      } finally {
        await proxy.close();
        await upstream.close();
        for (const dir of [work, home]) rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
