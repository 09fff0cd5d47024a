/**
 * The README's examples run as shown: its `js` block (the openai SDK, as an ES module) with node, its
 * `curl` commands as the requests they send, and its `yaml` blocks as config files the proxy loads.
 * Only the address differs: the README's 127.0.0.1:8080 is this test's proxy. The coding agents'
 * blocks are run by their own tests (test/e2e/claude-code.test.ts, test/e2e/codex-cli.test.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { loadConfig } from '../../src/runtime/configuration.js';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { chatAnswer, completionAnswer } from '../helpers/responses-fixtures.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const blocks = (lang: string) => [...readme.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map(([, code]) => code);

const chatChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
};

describe("the README's examples", () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  beforeAll(async () => {
    upstream = await startMockUpstream(({ path: called, body }) => {
      if ((body as { stream?: boolean }).stream) return { sse: `data: ${JSON.stringify(chatChunk)}\n\ndata: [DONE]\n\n` };
      return { json: called.endsWith('/chat/completions') ? chatAnswer({ content: 'hello there' }) : completionAnswer('once upon') };
    });
    proxy = await startProxyFor(upstream.url, { kind: 'vllm' });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });
  const here = (text: string) =>
    text.replaceAll('http://127.0.0.1:8080', proxy.url).replaceAll('localhost:8080', proxy.url.replace('http://', ''));

  test('the openai SDK block runs with node as an ES module, each of its three calls answered', async () => {
    const [code] = blocks('js');
    expect(code).toContain("from 'openai'");
    const dir = mkdtempSync(path.join(root, '.readme-example-'));
    try {
      writeFileSync(path.join(dir, 'hello.mjs'), here(code));
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'hello.mjs')], { timeout: 20_000 });
      expect(stdout.trim()).toBe('hello there once upon hello there');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('each curl command is answered 200', async () => {
    const commands = blocks('sh')
      .flatMap((block) => block.split(/\n(?=curl )/))
      .filter((text) => text.startsWith('curl '));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const [, url] = /^curl (\S+)/.exec(command) as RegExpExecArray;
      const body = (/-d '([^']*)'/.exec(command) as RegExpExecArray)[1];
      const response = await fetch(`http://${here(url)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect({ command, status: response.status }).toEqual({ command, status: 200 });
      await response.text();
    }
  });

  test('each whole config block loads (a fragment, one without routes, is read as YAML)', () => {
    const configs = blocks('yaml');
    expect(configs.length).toBeGreaterThan(0);
    for (const text of configs) {
      const raw = parse(text) as Record<string, unknown>;
      if (raw.backends && raw.routes) expect(() => loadConfig(raw, {}, { unsetVariables: 'empty' })).not.toThrow();
      else expect(raw).toBeInstanceOf(Object);
    }
  });
});
