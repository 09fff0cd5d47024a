/**
 * The coding-agent examples of config/examples/ started as a user starts them (the file, its
 * environment variables; only the upstream's URL pointed at a strict mock), each serving its agent's
 * own first request: Claude Code's (test/e2e/claude-code-captures/) through claude-code-openai.yaml
 * to an OpenAI chat server, its helper calls' haiku name routed to the small model; Codex CLI's
 * (test/e2e/codex-captures/) through codex-anthropic.yaml to Anthropic's Messages API; Gemini CLI's
 * (../shared/captures/gemini-cli: that block needs ../shared and skips where it is absent) through
 * gemini-cli-openai.yaml to an OpenAI chat server, its helper calls' flash names routed to the small model.
 */
import { readFileSync } from 'node:fs';
import { createLogger } from '../../src/logging/logger.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { startMockAnthropic, textStream, type MockAnthropic } from '../helpers/mock-anthropic.js';
import { chatChunk, startStrictOpenAI, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';
import { describeWithShared, sharedPath } from '../helpers/shared.js';

type Wire = Record<string, unknown>;
interface Capture {
  path: string;
  headers: Record<string, string>;
  body: Wire;
}

const capture = (folder: string) =>
  JSON.parse(readFileSync(new URL(`${folder}/tool-loop-1-request.json`, import.meta.url), 'utf8')) as Capture;
const KEY = 'proxy-key-0123';

async function startExample(file: string, env: Record<string, string>): Promise<RunningServer> {
  const config = loadConfig(`config/examples/${file}`, { PROXY_API_KEY: KEY, ...env });
  const server = await startServer(
    { ...config, server: { ...config.server, warmUpMs: 0 } },
    { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) },
  );
  await server.proxy.ready;
  return server;
}

describe('config/examples/claude-code-openai.yaml', () => {
  let openai: StrictOpenAI;
  let proxy: RunningServer;
  beforeAll(async () => {
    openai = await startStrictOpenAI(() => ({
      sse: [chatChunk({ role: 'assistant', content: 'Hello.' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'],
    }));
    proxy = await startExample('claude-code-openai.yaml', { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: openai.url });
  });
  afterAll(async () => {
    await proxy?.close();
    await openai?.close();
  });

  test("Claude Code's first request, as it sent it, reaches the chat server as gpt-5; a haiku helper call as gpt-5-mini", async () => {
    const { path, headers, body } = capture('claude-code-captures');
    const send = (model: string) =>
      fetch(proxy.url + path, { method: 'POST', headers: { ...headers, 'x-api-key': KEY }, body: JSON.stringify({ ...body, model }) });
    for (const model of ['claude-sonnet-4-5', 'claude-haiku-4-5-20251001']) {
      const response = await send(model);
      const text = await response.text();
      expect({ model, status: response.status, text: response.status === 200 ? '' : text }).toEqual({ model, status: 200, text: '' });
      expect(text).toContain('event: message_stop');
    }
    expect(openai.refusals).toEqual([]);
    expect(openai.requests.map((request) => [(request.body as Wire).model, request.headers.authorization])).toEqual([
      ['gpt-5', 'Bearer sk-upstream'],
      ['gpt-5-mini', 'Bearer sk-upstream'],
    ]);
  });
});

describe('config/examples/codex-anthropic.yaml', () => {
  let anthropic: MockAnthropic;
  let proxy: RunningServer;
  beforeAll(async () => {
    anthropic = await startMockAnthropic({ events: textStream(['Hello.']) });
    proxy = await startExample('codex-anthropic.yaml', { ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: anthropic.url });
  });
  afterAll(async () => {
    await proxy?.close();
    await anthropic?.close();
  });

  test("Codex CLI's first request, as it sent it, reaches Anthropic's API as claude-sonnet-4-5, capped by defaultMaxTokens", async () => {
    const { path, headers, body } = capture('codex-captures');
    const response = await fetch(proxy.url + path, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${KEY}` },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
    expect(text).toContain('event: response.completed');
    const [sent] = anthropic.requests;
    expect(sent.headers['x-api-key']).toBe('sk-ant-upstream');
    // Codex sends no cap (gpt-5.1-codex, its model, routed to Claude): the example's defaultMaxTokens, not the kind's 4096.
    expect(sent.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true });
  });
});

const geminiCapture = sharedPath('captures', 'gemini-cli', 'tool-loop-1-request.json');

describeWithShared(geminiCapture)('config/examples/gemini-cli-openai.yaml', () => {
  let openai: StrictOpenAI;
  let proxy: RunningServer;
  beforeAll(async () => {
    openai = await startStrictOpenAI(() => ({
      sse: [chatChunk({ role: 'assistant', content: 'Hello.' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'],
    }));
    proxy = await startExample('gemini-cli-openai.yaml', { OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: openai.url });
  });
  afterAll(async () => {
    await proxy?.close();
    await openai?.close();
  });

  test("Gemini CLI's first request, as it sent it, reaches the chat server as gpt-5; a flash helper call as gpt-5-mini", async () => {
    const { path, headers, body } = JSON.parse(readFileSync(geminiCapture, 'utf8')) as Capture;
    for (const model of ['gemini-2.5-pro', 'gemini-2.5-flash-lite']) {
      const response = await fetch(proxy.url + path.replace('gemini-2.5-pro', model), {
        method: 'POST',
        headers: { ...headers, 'x-goog-api-key': KEY },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      expect({ model, status: response.status, text: response.status === 200 ? '' : text }).toEqual({ model, status: 200, text: '' });
      expect(text).toContain('"finishReason":"STOP"');
    }
    expect(openai.refusals).toEqual([]);
    expect(openai.requests.map((request) => [(request.body as Wire).model, request.headers.authorization])).toEqual([
      ['gpt-5', 'Bearer sk-upstream'],
      ['gpt-5-mini', 'Bearer sk-upstream'],
    ]);
  });
});
