/**
 * Claude Code itself (`@anthropic-ai/claude-code`, its native build) run headless against the proxy,
 * in front of an OpenAI chat backend and an Anthropic one, each a strict mock (unknown keys refused;
 * Anthropic's refuses `context_management` without its beta in `anthropic-beta`, as the API does): a
 * prompt answered, and a tool loop whose tool (Write) runs on the client and whose result goes back
 * upstream as the tool result of the call. Then the session's count: no request answered 4xx by the
 * proxy (its log's request lines), none refused upstream. Before issue 36, every turn on the
 * anthropic backend cost a 400 (the beta field went without the caller's beta header) and a retry,
 * and its title call (thinking off beside an effort) was refused by the proxy. Needs the native build
 * for this platform (npm installs the one that matches); skipped where npm has none.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMockAnthropic, type AnthropicReply, type MockAnthropic } from '../helpers/mock-anthropic.js';
import type { RecordedRequest } from '../helpers/mock-upstream.js';
import { startLoggedProxy, type LoggedProxy } from '../helpers/start-logged-proxy.js';
import { chatChunk, startStrictOpenAI, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';

const require = createRequire(import.meta.url);

/** The native binary npm installed for this platform, if any. */
function claudeBinary(): string | undefined {
  try {
    const dir = path.dirname(require.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}/package.json`));
    const binary = path.join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = claudeBinary();
const describeClaude = binary ? describe : describe.skip;

type Wire = Record<string, unknown>;

const KEY = 'proxy-key';
const WRITTEN = 'written through dialect-proxy\n';
const HELLO = 'Hello from the backend.';
const DONE = 'Done: the file is written.';

/** What the mock models do: answer a Write request with the call (until its result is back), anything else with text. */
function turnOf(conversation: unknown, answered: boolean): { write?: string; text?: string } {
  if (answered) return { text: DONE };
  const target = /WRITE_FILE (\S+) :/.exec(JSON.stringify(conversation))?.[1];
  return target ? { write: JSON.stringify({ file_path: target, content: WRITTEN }) } : { text: HELLO };
}

function chatModel(request: RecordedRequest) {
  const body = request.body as { messages: Wire[]; response_format?: unknown };
  // Claude Code's title call asks for a JSON object.
  if (body.response_format)
    return { sse: [chatChunk({ role: 'assistant', content: '{"title": "Hello"}' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'] };
  const { write, text } = turnOf(
    body.messages,
    body.messages.some((message) => message.role === 'tool'),
  );
  const usage = chatChunk(null, null, { prompt_tokens: 20000, completion_tokens: 10, total_tokens: 20010 });
  if (text) return { sse: [chatChunk({ role: 'assistant', content: text }), chatChunk({}, 'stop'), usage, 'data: [DONE]\n\n'] };
  const call = { index: 0, id: 'call_w1', type: 'function', function: { name: 'Write', arguments: write } };
  return {
    sse: [chatChunk({ role: 'assistant', content: null, tool_calls: [call] }), chatChunk({}, 'tool_calls'), usage, 'data: [DONE]\n\n'],
  };
}

function anthropicModel(request: RecordedRequest): AnthropicReply {
  const body = request.body as { messages: { content: unknown }[]; output_config?: { format?: unknown } };
  const last = body.messages.at(-1)?.content;
  const answered = Array.isArray(last) && last.some((block) => (block as Wire).type === 'tool_result');
  const title = body.output_config?.format !== undefined;
  const { write, text } = title ? { write: undefined, text: '{"title": "Hello"}' } : turnOf(body.messages, answered);
  const block = write ? { type: 'tool_use', id: 'toolu_w1', name: 'Write', input: {} } : { type: 'text', text: '' };
  const delta = write ? { type: 'input_json_delta', partial_json: write } : { type: 'text_delta', text };
  return {
    events: [
      {
        type: 'message_start',
        message: {
          id: 'msg_cc',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20000, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: block },
      { type: 'content_block_delta', index: 0, delta },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: write ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } },
      { type: 'message_stop' },
    ],
  };
}

describeClaude('Claude Code (headless) -> dialect-proxy -> a chat backend and an anthropic backend', () => {
  let work: string;
  let chat: StrictOpenAI;
  let anthropic: MockAnthropic;
  const proxies: Record<string, LoggedProxy> = {};

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'claude-code-'));
    chat = await startStrictOpenAI(chatModel);
    anthropic = await startMockAnthropic(anthropicModel);
    const server = { apiKeys: [KEY] };
    const routes = [{ model: '*', backend: 'up' }];
    proxies.chat = await startLoggedProxy({
      server,
      backends: { up: { kind: 'openai', speaks: ['chat'], url: chat.url, apiKey: 'sk-up' } },
      routes,
    });
    proxies.anthropic = await startLoggedProxy({
      server,
      backends: { up: { kind: 'anthropic', url: anthropic.url, apiKey: 'sk-ant-up' } },
      routes,
    });
  });
  afterAll(async () => {
    await Promise.all(Object.values(proxies).map(({ proxy }) => proxy.close()));
    await Promise.all([chat?.close(), anthropic?.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  /** `claude -p` in a project folder of its own, with a scratch HOME; `quiet` as the README says (no helper calls). */
  async function claude(kind: string, args: string[], { quiet = true } = {}) {
    const project = mkdtempSync(path.join(work, `${kind}-`));
    mkdirSync(path.join(project, 'home'));
    const child = spawn(binary as string, ['-p', ...args, '--output-format', 'json'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: path.join(project, 'home'),
        ANTHROPIC_BASE_URL: proxies[kind].proxy.url,
        ANTHROPIC_API_KEY: KEY,
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        ...(quiet ? { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } : {}),
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    return { project, result: JSON.parse(stdout) as { is_error: boolean; result: string; num_turns: number } };
  }

  describe.each(['chat', 'anthropic'])('%s backend', (kind) => {
    test('a prompt answered (Claude Code as it starts by default: its helper calls too)', async () => {
      const { result } = await claude(kind, ['Say hello.', '--model', 'claude-sonnet-4-5'], { quiet: false });
      expect(result).toMatchObject({ is_error: false, result: HELLO, num_turns: 1 });
    }, 120_000);

    test('a Write tool loop: the tool runs on the client, its result goes back upstream, the answer comes home', async () => {
      const upstream = kind === 'chat' ? chat : anthropic;
      const before = upstream.requests.length;
      const project = mkdtempSync(path.join(work, `${kind}-write-`));
      const target = path.join(project, 'out.txt');
      const { result } = await claude(kind, [
        `WRITE_FILE ${target} : create this file.`,
        '--model',
        'any-model',
        '--allowedTools',
        'Write',
      ]);
      expect(result).toMatchObject({ is_error: false, result: DONE, num_turns: 2 });
      expect(readFileSync(target, 'utf8')).toBe(WRITTEN);
      // Upstream, the second turn carries the call and its result.
      const [first, second] = upstream.requests.slice(before).map((request) => request.body as { messages: Wire[]; tools?: Wire[] });
      if (kind === 'chat') {
        expect(first.tools?.map((tool) => (tool.function as Wire).name)).toContain('Write');
        expect(second.messages.slice(-2)).toMatchObject([
          { role: 'assistant', tool_calls: [{ id: 'toolu_w1', function: { name: 'Write' } }] },
          { role: 'tool', tool_call_id: 'toolu_w1' },
        ]);
      } else {
        expect(first.tools?.map((tool) => tool.name)).toContain('Write');
        expect(second.messages.slice(-2)).toMatchObject([
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w1', name: 'Write' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w1' }] },
        ]);
      }
    }, 120_000);

    test('the whole session: no request answered 4xx by the proxy, none refused upstream', () => {
      const statuses = proxies[kind].statuses();
      expect(statuses.length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((status) => status >= 400)).toEqual([]);
      if (kind === 'chat') {
        expect(chat.refusals).toEqual([]);
      } else {
        // Claude Code's beta field went with its beta header (the caller's, relayed), so the API took it.
        const beta = anthropic.requests.filter((request) => 'context_management' in (request.body as Wire));
        expect(beta.length).toBeGreaterThan(0);
        expect(beta.map((request) => request.headers['anthropic-beta'])).toEqual(
          beta.map(() => expect.stringContaining('context-management-')),
        );
      }
    });
  });
});
