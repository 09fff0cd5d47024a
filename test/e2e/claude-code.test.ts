/**
 * Claude Code itself (`@anthropic-ai/claude-code`, its native build) run
 * headless against the proxy, in front of an OpenAI-compatible chat backend:
 * a tool loop whose tool (Write) runs on the client and whose result goes back
 * upstream as the tool message of the call. Needs the native build for this
 * platform (npm installs the one that matches); skipped where npm has none.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

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

const chunk = (delta: object | null, finish: string | null = null, usage?: object) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-cc', object: 'chat.completion.chunk', created: 1, model: 'up', choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [], ...(usage ? { usage } : {}) })}\n\n`;
const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

/** The model asks to Write the file until a tool result is in the conversation, then answers. */
function model(target: string) {
  return (request: RecordedRequest) => {
    const body = request.body as { messages: { role: string }[] };
    const answered = body.messages.some((message) => message.role === 'tool');
    const sse = answered
      ? [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Done: the file is written.' }), chunk({}, 'stop')]
      : [
          chunk({ role: 'assistant', content: null }),
          chunk({ tool_calls: [{ index: 0, id: 'call_w1', type: 'function', function: { name: 'Write', arguments: '' } }] }),
          chunk({
            tool_calls: [
              { index: 0, function: { arguments: JSON.stringify({ file_path: target, content: 'written through dialect-proxy\n' }) } },
            ],
          }),
          chunk({}, 'tool_calls'),
        ];
    return { sse: [...sse, chunk(null, null, usage), 'data: [DONE]\n\n'] };
  };
}

describeClaude('Claude Code (headless) -> dialect-proxy -> an OpenAI chat backend', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'claude-code-'));
    upstream = await startMockUpstream(model(path.join(work, 'project', 'out.txt')));
    proxy = await startProxyFor(
      upstream.url,
      { kind: 'openai', speaks: ['chat'], apiKey: 'upstream-secret' },
      { server: { apiKeys: ['proxy-key'] } },
    );
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('claude -p with --allowedTools Write: the tool runs on the client, its result goes back upstream, the answer comes home', async () => {
    const project = path.join(work, 'project');
    const target = path.join(project, 'out.txt');
    mkdirSync(project, { recursive: true });
    mkdirSync(path.join(work, 'home'), { recursive: true });
    const child = spawn(
      binary as string,
      ['-p', `WRITE_FILE ${target} : create this file.`, '--model', 'any-model', '--allowedTools', 'Write', '--output-format', 'json'],
      {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: path.join(work, 'home'),
          ANTHROPIC_BASE_URL: proxy.url,
          ANTHROPIC_API_KEY: 'proxy-key',
          DISABLE_TELEMETRY: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });

    const result = JSON.parse(stdout) as { is_error: boolean; result: string; num_turns: number };
    expect(result).toMatchObject({ is_error: false, result: 'Done: the file is written.', num_turns: 2 });
    expect(readFileSync(target, 'utf8')).toBe('written through dialect-proxy\n');

    // Upstream: the first turn with Claude Code's tools as functions; the second with the call and its result.
    const [first, second] = upstream.requests.map(
      (request) => request.body as { tools?: { function: { name: string } }[]; messages: Record<string, unknown>[] },
    );
    expect(first.tools?.map((tool) => tool.function.name)).toContain('Write');
    const tail = second.messages.slice(-2);
    expect(tail[0]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'toolu_w1', function: { name: 'Write' } }] });
    expect(tail[1]).toMatchObject({ role: 'tool', tool_call_id: 'toolu_w1' });
  }, 120_000);
});
