/**
 * The real Gemini CLI (0.61, @google/gemini-cli), headless (`gemini -p ... -o json --approval-mode yolo`),
 * with GOOGLE_GEMINI_BASE_URL the proxy and GEMINI_API_KEY the proxy's key, as the capture README runs
 * it (a scratch HOME whose settings pick the API-key auth: 0.61 picks a "gateway" auth its headless
 * mode rejects when only the base URL is set). It speaks nothing but `:streamGenerateContent?alt=sse`,
 * under its own model names (its helper calls use fixed ones): one catch-all route serves them all.
 * In front of each remote kind, each with a mock model that calls the CLI's `write_file` tool, then
 * answers: a strict chat server, a strict completions-only one, a strict Anthropic one and a strict
 * Gemini one (which refuses a functionCall handed back without the thoughtSignature it gave). The file
 * is written on the client, the call's result goes upstream, the answer reaches the CLI, and no request
 * is answered 4xx. And in front of the bundled worker on the built-in model, as `npm start` serves it:
 * the CLI's ~48k-token first turn is read and answered (a model of random weights calls no tool, so
 * there the loop is the remote kinds').
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningServer } from '../../src/http/server.js';
import { startBuiltinProxy, startProxyFor } from '../helpers/start-proxy.js';
import { startMockAnthropic, textStream } from '../helpers/mock-anthropic.js';
import { startMockGemini, textChunks } from '../helpers/mock-gemini.js';
import type { RecordedRequest } from '../helpers/mock-upstream.js';
import { chatChunk, startStrictOpenAI, textChunk } from '../helpers/strict-openai-upstream.js';

const require = createRequire(import.meta.url);
const geminiBin = path.join(path.dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');

const KEY = 'proxy-key';
const CONTENT = 'written through dialect-proxy\n';
const ANSWER = 'The file is written.';
const SIGNATURE = 'c2lnbmVkLWJ5LWdlbWluaQ';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `gemini -p` as the capture README runs it: a scratch HOME, no network but the proxy, no terminal. */
function geminiPrompt({ proxyUrl, cwd, home, prompt }: { proxyUrl: string; cwd: string; home: string; prompt: string }): Promise<Run> {
  mkdirSync(path.join(home, '.gemini'), { recursive: true });
  writeFileSync(
    path.join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, maxAttempts: 1 },
    }),
  );
  const args = [geminiBin, '-p', prompt, '-m', 'gemini-2.5-pro', '-o', 'json', '--approval-mode', 'yolo'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: home,
        GOOGLE_GEMINI_BASE_URL: proxyUrl,
        GEMINI_API_KEY: KEY,
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
    const timer = setTimeout(() => child.kill('SIGKILL'), 270_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

type Wire = Record<string, unknown>;

/** Whether the conversation already holds the tool's result (then the model answers). */
type Answered = (body: Wire) => boolean;

interface Upstream {
  url: string;
  requests: RecordedRequest[];
  refusals?: unknown[];
  close(): Promise<void>;
}

interface Kind {
  start(file: string): Promise<Upstream>;
  backend: Record<string, unknown>;
  /** The request that carries the tool's result back. */
  answered: Answered;
}

const callArgs = (file: string) => ({ file_path: file, content: CONTENT });

const KINDS: Record<string, Kind> = {
  chat: {
    backend: { kind: 'openai', speaks: ['chat'], apiKey: 'sk-upstream' },
    answered: (body) => (body.messages as Wire[]).at(-1)?.role === 'tool',
    start: (file) =>
      startStrictOpenAI((request) => {
        if (KINDS.chat.answered(request.body as Wire))
          return { sse: [chatChunk({ role: 'assistant', content: ANSWER }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'] };
        const call = {
          index: 0,
          id: 'call_w1',
          type: 'function',
          function: { name: 'write_file', arguments: JSON.stringify(callArgs(file)) },
        };
        return {
          sse: [chatChunk({ role: 'assistant', content: null, tool_calls: [call] }), chatChunk({}, 'tool_calls'), 'data: [DONE]\n\n'],
        };
      }),
  },
  'completions-only': {
    backend: { kind: 'openai', speaks: ['completions'], apiKey: 'sk-upstream' },
    answered: (body) => String(body.prompt).includes('<tool_response>'),
    start: (file) =>
      startStrictOpenAI((request) => {
        const text = KINDS['completions-only'].answered(request.body as Wire)
          ? ANSWER
          : `<tool_call>\n{"name": "write_file", "arguments": ${JSON.stringify(callArgs(file))}}\n</tool_call>`;
        return { sse: [textChunk(text), textChunk('', 'stop'), 'data: [DONE]\n\n'] };
      }),
  },
  anthropic: {
    backend: { kind: 'anthropic', apiKey: 'sk-ant-upstream' },
    answered: (body) => {
      const last = (body.messages as { content: unknown }[]).at(-1)?.content;
      return Array.isArray(last) && last.some((block) => (block as Wire).type === 'tool_result');
    },
    start: (file) =>
      startMockAnthropic((request) => {
        if (KINDS.anthropic.answered(request.body as Wire)) return { events: textStream([ANSWER]) };
        const [start] = textStream([]);
        const events = [
          start,
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_w1', name: 'write_file', input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(callArgs(file)) } },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } },
          { type: 'message_stop' },
        ];
        return { events };
      }),
  },
  gemini: {
    backend: { kind: 'gemini', apiKey: 'upstream-gemini-key' },
    answered: (body) => {
      const parts = (body.contents as { parts: Wire[] }[]).at(-1)?.parts ?? [];
      return parts.some((part) => part.functionResponse !== undefined);
    },
    start: async (file) => {
      const gemini = await startMockGemini((request) => {
        if (KINDS.gemini.answered(request.body as Wire)) return { chunks: textChunks([ANSWER]) };
        const call = { functionCall: { name: 'write_file', args: callArgs(file) }, thoughtSignature: SIGNATURE };
        return { chunks: [{ candidates: [{ content: { role: 'model', parts: [call] }, finishReason: 'STOP', index: 0 }] }] };
      });
      return gemini;
    },
  },
};

/** Every request the proxy answered, as `METHOD path status`. */
function answeredBy(proxy: RunningServer): { line: string; status: number }[] {
  const answered: { line: string; status: number }[] = [];
  proxy.server.on('request', (req, res) => {
    res.once('finish', () => answered.push({ line: `${req.method ?? ''} ${(req.url ?? '').replace(/\?.*/, '')}`, status: res.statusCode }));
  });
  return answered;
}

describe('Gemini CLI, headless, through the proxy', () => {
  test.each(Object.keys(KINDS))(
    '%s backend: write_file runs on the client, its result goes upstream, the answer comes back; no 4xx',
    async (name) => {
      const kind = KINDS[name];
      const work = mkdtempSync(path.join(tmpdir(), 'gemini-work-'));
      const home = mkdtempSync(path.join(tmpdir(), 'gemini-home-'));
      const file = path.join(work, 'out.txt');
      const upstream = await kind.start(file);
      const proxy = await startProxyFor(upstream.url, kind.backend, { server: { apiKeys: [KEY] } });
      const answered = answeredBy(proxy);
      try {
        const run = await geminiPrompt({ proxyUrl: proxy.url, cwd: work, home, prompt: `WRITE_FILE ${file} : create this file.` });
        expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
        // The file was written on the client...
        expect(readFileSync(file, 'utf8')).toBe(CONTENT);
        // ...the call's result went back upstream, and the model's answer reached the CLI.
        // (A count of tokens has no conversation to answer: only generation requests are turns.)
        const turns = upstream.requests.filter((request) => !request.path.includes('countTokens'));
        expect(turns.some((request) => kind.answered(request.body as Wire))).toBe(true);
        expect((JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { response: string }).response).toContain(ANSWER);
        // No request was refused, by the proxy or the strict backend; the CLI spoke only the streaming endpoint.
        expect(answered.filter((entry) => entry.status >= 400)).toEqual([]);
        expect(new Set(answered.map((entry) => entry.line.replace(/models\/[^:]+/, 'models/M')))).toEqual(
          new Set(['POST /v1beta/models/M:streamGenerateContent']),
        );
        expect(upstream.refusals ?? []).toEqual([]);
        if (name === 'gemini') {
          // The signature the backend gave came back with the call on the next turn (the strict mock refuses it otherwise).
          const back = turns.find((request) => kind.answered(request.body as Wire))?.body as {
            contents: { role: string; parts: Wire[] }[];
          };
          expect(back.contents.flatMap((turn) => turn.parts)).toContainEqual(expect.objectContaining({ thoughtSignature: SIGNATURE }));
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

describe('Gemini CLI, headless, on the bundled worker (built-in model)', () => {
  test('its whole first turn (~48k tokens of system instruction and tools) is read and answered; no 4xx', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'gemini-work-'));
    const home = mkdtempSync(path.join(tmpdir(), 'gemini-home-'));
    // config/default.yaml's context, one sequence; a few tokens of answer: reading the prompt is the test.
    const proxy = await startBuiltinProxy({ contextSize: 65536, parallel: 1, defaultMaxTokens: 4 });
    const answered = answeredBy(proxy);
    try {
      const run = await geminiPrompt({ proxyUrl: proxy.url, cwd: work, home, prompt: 'Say hello.' });
      expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-3000) }).toEqual({ code: 0, stderr: '' });
      const output = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
        response: string;
        stats: { models: Record<string, { tokens: { prompt: number; candidates: number } }> };
      };
      expect(output.response.length).toBeGreaterThan(0);
      const [tokens] = Object.values(output.stats.models).map((model) => model.tokens);
      // The worker counted the prompt it read, and stopped at defaultMaxTokens.
      expect(tokens.prompt).toBeGreaterThan(20_000);
      expect(tokens.candidates).toBeLessThanOrEqual(4);
      expect(answered.filter((entry) => entry.status >= 400)).toEqual([]);
      expect(answered.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
      for (const dir of [work, home]) rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
