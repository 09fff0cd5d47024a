/**
 * With `jinja: true`, llama-server's `/props` says whether the model's chat
 * template takes tools; a template that cannot is refused by name instead of
 * answering in plain text with the tools silently left out.
 */
import { supports } from '../../../src/backend/capabilities.js';
import type { RunningServer } from '../../../src/http/server.js';
import { createLlamaServerAdapter } from '../../../adapters/llama-server/llama-server-adapter.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from '../../helpers/mock-upstream.js';
import { startProxyFor } from '../../helpers/start-proxy.js';

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const withTools = {
  model: 'm',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  ],
  tool_choice: 'required',
};

/** llama-server: `/props` (its capture's shape, with the caps asked for) and the chat endpoint. */
function llamaServer(caps: () => Record<string, unknown> | undefined): (request: RecordedRequest) => MockReply {
  return (request) => {
    if (request.path === '/props') {
      const chatTemplateCaps = caps();
      return chatTemplateCaps
        ? { json: { chat_template: '{{ messages }}', chat_template_caps: chatTemplateCaps, build_info: 'b0' } }
        : { status: 404, json: { error: { message: 'File Not Found', code: 404 } } };
    }
    return { json: chatAnswer };
  };
}

describe('llama-server /props: chat_template_caps.supports_tools', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer | undefined;
  let caps: Record<string, unknown> | undefined;

  beforeEach(async () => {
    upstream = await startMockUpstream(llamaServer(() => caps));
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await upstream.close();
  });

  async function send(): Promise<{ status: number; body: { error?: { param: string; message: string } } }> {
    const response = await fetch(`${proxy?.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(withTools),
    });
    return { status: response.status, body: (await response.json()) as { error?: { param: string; message: string } } };
  }

  test('a template that cannot take tools: a 400 naming tools, nothing sent', async () => {
    caps = { supports_tools: false, supports_tool_calls: false };
    proxy = await startProxyFor(upstream.url, { kind: 'llama-server', jinja: true, speaks: ['chat'] });
    const answer = await send();
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ param: 'tools', message: expect.stringMatching(/tools is not supported by this backend/) });
    expect(upstream.requests.map((request) => request.path)).toEqual(['/props']);
  });

  test('a template that takes tools: they are sent', async () => {
    caps = { supports_tools: true, supports_tool_calls: true };
    proxy = await startProxyFor(upstream.url, { kind: 'llama-server', jinja: true, speaks: ['chat'] });
    expect((await send()).status).toBe(200);
    expect(upstream.requests.at(-1)?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather' } }],
      tool_choice: 'required',
    });
  });

  test('a server without /props: the configured jinja stands', async () => {
    caps = undefined;
    proxy = await startProxyFor(upstream.url, { kind: 'llama-server', jinja: true, speaks: ['chat'] });
    expect((await send()).status).toBe(200);
  });

  test('read again once stale: a server restarted with another model is seen', async () => {
    caps = { supports_tools: true };
    const adapter = createLlamaServerAdapter({ kind: 'llama-server', url: upstream.url, jinja: true }, { propsTtlMs: 0 });
    await adapter.start?.();
    expect(supports(adapter.capabilities, 'tools')).toBe(true);
    caps = { supports_tools: false };
    const context = { signal: new AbortController().signal, requestId: 'r' };
    await adapter.complete(
      { ...(await import('../../../src/model/request.js')).emptyRequest('chat', 'm'), messages: [{ role: 'user', content: 'Hi' }] },
      context,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(supports(adapter.capabilities, 'tools')).toBe(false);
    await adapter.close?.();
  });
});
