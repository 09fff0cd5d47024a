/**
 * Gemini CLI 0.61.0's own requests (../shared/captures/gemini-cli/: body and headers as it sent them to
 * `:streamGenerateContent?alt=sse`, `x-goog-api-key`, a ~30 kB systemInstruction with role `user`, 16
 * functionDeclarations with `parametersJsonSchema`, `thinkingConfig.includeThoughts` and a budget; the
 * second turn hands back a `write_file` functionCall with the CLI's own id and Google's
 * `thoughtSignature`) replayed on a strict chat backend (it refuses keys OpenAI does not know). This
 * test needs ../shared and skips where it is absent (test/helpers/shared.ts). No request is refused:
 * each answers 200, the proxy logs no 4xx, the call comes back as a functionCall the CLI can run, and
 * what no backend here has (the signature it did not make) is named in `x-dialect-warnings`.
 */
import { readFileSync } from 'node:fs';
import { describeWithShared, sharedPath } from '../helpers/shared.js';
import { startLoggedProxy, type LoggedProxy } from '../helpers/start-logged-proxy.js';
import { chatChunk, startStrictOpenAI, type StrictOpenAI } from '../helpers/strict-openai-upstream.js';

type Wire = Record<string, unknown>;

interface Capture {
  path: string;
  headers: Record<string, string>;
  body: Wire;
}

const files = ['tool-loop-1-request.json', 'tool-loop-2-tool-result.json'].map((name) => sharedPath('captures', 'gemini-cli', name));
const KEY = 'proxy-key';
const WRITE_ARGS = { file_path: '/home/user/project/out.txt', content: 'written through dialect-proxy\n' };

describeWithShared(...files)('Gemini CLI captures on a strict chat backend', () => {
  const [first, second] = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Capture);
  let chat: StrictOpenAI;
  let logged: LoggedProxy;

  beforeAll(async () => {
    chat = await startStrictOpenAI((request) => {
      const messages = (request.body as { messages: Wire[] }).messages;
      if (messages.at(-1)?.role === 'tool')
        return { sse: [chatChunk({ role: 'assistant', content: 'Done.' }), chatChunk({}, 'stop'), 'data: [DONE]\n\n'] };
      const call = { index: 0, id: 'call_w1', type: 'function', function: { name: 'write_file', arguments: JSON.stringify(WRITE_ARGS) } };
      return {
        sse: [
          chatChunk({ role: 'assistant', content: null, tool_calls: [call] }),
          chatChunk({}, 'tool_calls'),
          chatChunk(null, null, { prompt_tokens: 9000, completion_tokens: 30, total_tokens: 9030 }),
          'data: [DONE]\n\n',
        ],
      };
    });
    logged = await startLoggedProxy({
      server: { apiKeys: [KEY] },
      backends: { chat: { kind: 'openai', speaks: ['chat'], url: chat.url, apiKey: 'upstream-secret', retries: { attempts: 0 } } },
      routes: [{ model: '*', backend: 'chat' }],
    });
  });
  afterAll(async () => {
    await logged.proxy.close();
    await chat.close();
  });

  /** Replays a capture (its path, its headers with the proxy's key) and reads the SSE chunks. */
  async function replay(capture: Capture) {
    const response = await fetch(logged.proxy.url + capture.path, {
      method: 'POST',
      headers: { ...capture.headers, 'x-goog-api-key': KEY, 'accept-encoding': 'identity' },
      body: JSON.stringify(capture.body),
    });
    const text = await response.text();
    const chunks = text
      .split('\r\n\r\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice(6)) as Wire);
    return { status: response.status, text, chunks, warnings: response.headers.get('x-dialect-warnings') ?? '' };
  }

  test('the first turn: the system instruction and every tool go up; the call comes back as a functionCall', async () => {
    const { status, text, chunks } = await replay(first);
    expect({ status, text: status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
    const sent = chat.requests[0].body as { messages: Wire[]; tools: Wire[] };
    expect(sent.messages[0]).toMatchObject({ role: 'system' });
    expect(sent.tools).toHaveLength(16);
    const parts = chunks.flatMap((chunk) => (chunk.candidates as { content?: { parts?: Wire[] } }[])[0]?.content?.parts ?? []);
    expect(parts).toContainEqual({ functionCall: { id: 'call_w1', name: 'write_file', args: WRITE_ARGS } });
    expect(chunks.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { totalTokenCount: 9030 } });
  });

  test("the second turn: the CLI's call and its response as a tool loop; Google's signature left out by name", async () => {
    const { status, text, warnings } = await replay(second);
    expect({ status, text: status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
    const sent = chat.requests.at(-1)?.body as { messages: Wire[] };
    expect(sent.messages.slice(-2)).toMatchObject([
      { role: 'assistant', tool_calls: [{ id: 'write_file_1796452604187_0', function: { name: 'write_file' } }] },
      { role: 'tool', tool_call_id: 'write_file_1796452604187_0' },
    ]);
    expect(warnings).toContain('thoughtSignature: a thoughtSignature this proxy did not make');
    expect(text).toContain('Done.');
  });

  test('the proxy logged no 4xx', () => {
    expect(logged.statuses().filter((status) => status >= 400)).toEqual([]);
  });
});
