/**
 * What the proxy hands a stateless Responses caller to give back (Codex CLI: `store: false`,
 * `include: ["reasoning.encrypted_content"]`): a reasoning item's `encrypted_content`, sealed by
 * the proxy, brings the reasoning and its Anthropic signature back intact on the next turn, as JSON
 * and streamed; what was altered, sealed under another key or by someone else is a 400 naming the
 * item. And `POST /v1/responses/compact`: the backend summarises the conversation, the answer ends
 * with exactly one `compaction` item, and that item, sent back, stands for the turns it replaced.
 */
import type { RunningServer } from '../../src/http/server.js';
import { anthropicMessage, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic.js';
import { sseFrames, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

const KEY = 'a-test-encryption-key-of-some-length';
const SIGNATURE = 'EqQBCkYIBxgCKkDsignature-of-the-thinking';
const THINKING = 'The file must hold codex-ok: one printf will do.';

const thinkingToolUse = anthropicMessage({
  content: [
    { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
    { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'printf codex-ok > out.txt' } },
  ],
  stop_reason: 'tool_use',
});

const streamedThinkingToolUse = [
  { type: 'message_start', message: anthropicMessage({ content: [], stop_reason: null }) },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: THINKING } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: {} } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"cmd":"printf codex-ok > out.txt"}' } },
  { type: 'content_block_stop', index: 1 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 20 } },
  { type: 'message_stop' },
];

const tools = [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }];
const firstTurn = (stream: boolean) => ({
  model: 'claude-sonnet-4-5',
  input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Write codex-ok to out.txt' }] }],
  tools,
  reasoning: { effort: 'medium', summary: 'auto' },
  include: ['reasoning.encrypted_content'],
  store: false,
  stream,
});

async function post(proxy: RunningServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The output items of a JSON answer, or of a stream's `response.completed`. */
async function outputOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return JSON.parse(text).output;
  const completed = sseFrames(text).find((frame) => (frame as { type?: string }).type === 'response.completed') as {
    response: { output: Record<string, unknown>[] };
  };
  return completed.response.output;
}

/** Codex's next turn: the first turn's input, its output items as they came, the command's output. */
function secondTurn(first: ReturnType<typeof firstTurn>, output: Record<string, unknown>[]) {
  const call = output.find((item) => item.type === 'function_call') as { call_id: string };
  return {
    ...first,
    stream: false,
    input: [...first.input, ...output, { type: 'function_call_output', call_id: call.call_id, output: 'done' }],
  };
}

describe('sealed reasoning on an anthropic backend (Codex CLI, stateless)', () => {
  let anthropic: MockAnthropic;
  let proxy: RunningServer;
  beforeAll(async () => {
    anthropic = await startMockAnthropic();
    proxy = await startProxyFor(anthropic.url, { kind: 'anthropic', apiKey: 'sk-ant' }, { responses: { encryptionKey: KEY } });
  });
  afterAll(async () => {
    await proxy.close();
    await anthropic.close();
  });
  beforeEach(() => {
    anthropic.requests.length = 0;
  });

  test.each([false, true])('stream %s: the signature comes back intact on the next turn', async (stream) => {
    anthropic.reply((_request, index) =>
      index === 0 ? (stream ? { events: streamedThinkingToolUse } : { message: thinkingToolUse }) : { message: anthropicMessage() },
    );
    const first = firstTurn(stream);
    const answer = await post(proxy, '/v1/responses', first);
    expect(answer.status).toBe(200);
    const output = await outputOf(answer);
    const reasoning = output.find((item) => item.type === 'reasoning') as Record<string, unknown>;
    expect(reasoning).toMatchObject({ summary: [{ type: 'summary_text', text: THINKING }] });
    expect(reasoning.encrypted_content).toMatch(/^dpx1\./);
    // Sealed: neither the text nor the signature can be read from it.
    expect(String(reasoning.encrypted_content)).not.toContain(SIGNATURE);

    const next = await post(proxy, '/v1/responses', secondTurn(first, output));
    expect(next.status).toBe(200);
    // Only the effort's translation is said; nothing of the history was left out.
    expect(next.headers.get('x-dialect-warnings')).not.toMatch(/dropped|left out|not sent|signature/);
    const sent = anthropic.requests[1].body as { messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(sent.messages[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
        { type: 'tool_use', id: 'toolu_1' },
      ],
    });
  });

  test('an altered encrypted_content is a 400 naming the item; so is one the proxy did not seal', async () => {
    anthropic.reply({ message: thinkingToolUse });
    const first = firstTurn(false);
    const output = await outputOf(await post(proxy, '/v1/responses', first));
    const index = output.findIndex((item) => item.type === 'reasoning');
    const sealed = String(output[index].encrypted_content);
    const altered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    for (const [value, message] of [
      [altered, /does not open: it was altered/],
      ['gAAAAABpM0Yj-openai-encrypted=', /was not made by this proxy/],
    ] as const) {
      const outputAgain = output.map((item, i) => (i === index ? { ...item, encrypted_content: value } : item));
      const refused = await post(proxy, '/v1/responses', secondTurn(first, outputAgain));
      const body = (await refused.json()) as { error: { param: string; message: string } };
      expect({ status: refused.status, param: body.error.param }).toEqual({ status: 400, param: `input[${1 + index}].encrypted_content` });
      expect(body.error.message).toMatch(message);
    }
    expect(anthropic.requests).toHaveLength(1); // neither reached the backend
  });

  test('another proxy with the same responses.encryptionKey opens it; one with another key refuses it', async () => {
    anthropic.reply({ message: thinkingToolUse });
    const first = firstTurn(false);
    const output = await outputOf(await post(proxy, '/v1/responses', first));
    const twin = await startProxyFor(anthropic.url, { kind: 'anthropic', apiKey: 'sk-ant' }, { responses: { encryptionKey: KEY } });
    const stranger = await startProxyFor(
      anthropic.url,
      { kind: 'anthropic', apiKey: 'sk-ant' },
      { responses: { encryptionKey: 'another-key-entirely-0123456789' } },
    );
    try {
      anthropic.reply({ message: anthropicMessage() });
      expect((await post(twin, '/v1/responses', secondTurn(first, output))).status).toBe(200);
      expect((await post(stranger, '/v1/responses', secondTurn(first, output))).status).toBe(400);
    } finally {
      await Promise.all([twin.close(), stranger.close()]);
    }
  });
});

describe('POST /v1/responses/compact', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;
  const summary = 'The user wants codex-ok in out.txt; printf wrote it; nothing remains.';
  beforeAll(async () => {
    upstream = await startMockUpstream();
    proxy = await startProxyFor(upstream.url, { kind: 'openai', apiKey: 'sk-up' }, { responses: { encryptionKey: KEY } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  const history = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Write codex-ok to out.txt' }] },
    { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"printf codex-ok > out.txt"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'done' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] },
  ];

  test('the backend summarises; the answer keeps the user messages and ends with one compaction item, which stands for them next turn', async () => {
    upstream.reply({
      json: {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: summary }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
      },
    });
    const compacted = await post(proxy, '/v1/responses/compact', { model: 'gpt-5.1-codex', input: history, tools });
    expect(compacted.status).toBe(200);
    const body = (await compacted.json()) as { object: string; output: Record<string, unknown>[]; usage: Record<string, unknown> };
    expect(body).toMatchObject({ object: 'response.compaction', usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 } });
    expect(body.output.slice(0, -1)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Write codex-ok to out.txt' }] },
    ]);
    expect(body.output.filter((item) => item.type === 'compaction')).toHaveLength(1);
    expect(body.output.at(-1)).toMatchObject({
      type: 'compaction',
      id: expect.stringMatching(/^cmp_/),
      encrypted_content: expect.stringMatching(/^dpx1\./),
    });
    // The backend was asked for a summary of the whole conversation, with no tool to call.
    const asked = upstream.requests[0].body as { messages: { role: string; content: unknown }[]; tool_choice: string; stream?: boolean };
    expect(asked.messages).toHaveLength(history.length + 1);
    expect(String(asked.messages.at(-1)?.content)).toMatch(/^Summarize the conversation above/);
    expect(asked.tool_choice).toBe('none');
    expect(asked.stream).toBeFalsy();

    upstream.requests.length = 0;
    upstream.reply({
      json: {
        id: 'c2',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      },
    });
    const next = await post(proxy, '/v1/responses', {
      model: 'gpt-5.1-codex',
      store: false,
      input: [...body.output, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And now?' }] }],
    });
    expect(next.status).toBe(200);
    const sent = upstream.requests[0].body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write codex-ok to out.txt' }] },
      { role: 'user', content: expect.stringContaining(summary) },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ]);
  });

  test('an altered compaction item is a 400 naming it', async () => {
    const refused = await post(proxy, '/v1/responses', {
      model: 'm',
      input: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'dpx1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    });
    const body = (await refused.json()) as { error: { param: string } };
    expect({ status: refused.status, param: body.error.param }).toEqual({ status: 400, param: 'input[0].encrypted_content' });
  });
});
