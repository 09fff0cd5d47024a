/** `dialect-proxy translate` in-process: the JSON document, exit codes 0/1/2, targets and misuse (the golden cases in test/cli-golden run the built command). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runTranslateCommand } from '../../src/commands/translate-command.js';
import { dialectFor, endpointNamed } from '../../src/commands/translate.js';

const dir = mkdtempSync(join(tmpdir(), 'translate-'));
const configPath = join(dir, 'proxy.yaml');
writeFileSync(
  configPath,
  `
backends:
  openai: { kind: openai, url: "http://127.0.0.1:9/v1", speaks: [chat] }
routes:
  - { model: "*", backend: openai }
`,
);

async function translate(
  body: unknown,
  args: string[] = ['--config', configPath],
): Promise<{ code: number; output: Record<string, unknown>; err: string }> {
  let text = '';
  let err = '';
  const code = await runTranslateCommand([...args, '--json'], {
    stdin: Readable.from([typeof body === 'string' ? body : JSON.stringify(body)]),
    out: (chunk) => {
      text += chunk;
    },
    err: (chunk) => {
      err += chunk;
    },
  });
  return { code, output: text ? (JSON.parse(text) as Record<string, unknown>) : {}, err };
}

describe('dialect-proxy translate', () => {
  test('prints what a completions request becomes on a chat-only backend, and every change (exit 0: lossless)', async () => {
    expect(await translate({ model: 'gpt-4o', prompt: 'Hello', max_tokens: 5, stream: true })).toEqual({
      code: 0,
      err: '',
      output: {
        object: 'dialect.dry_run',
        dialect: 'fireworks-completions',
        backend: 'openai',
        kind: 'openai',
        verdict: 'lossless',
        changes: [
          {
            field: 'prompt',
            action: 'converted',
            to: 'messages',
            lossy: false,
            reason:
              'sent as the user message of a chat request; reasoning the backend returns apart is put back into the text between think tags',
          },
          {
            field: 'max_tokens',
            action: 'renamed',
            to: 'max_completion_tokens',
            lossy: false,
            reason: 'the OpenAI chat API calls it max_completion_tokens',
          },
        ],
        warnings: [],
        upstream: [
          {
            endpoint: '/chat/completions',
            stream: true,
            body: {
              model: 'gpt-4o',
              messages: [{ role: 'user', content: 'Hello' }],
              max_completion_tokens: 5,
              stream: true,
              stream_options: { include_usage: true },
            },
          },
        ],
      },
    });
  });

  test('a refusal: the error a caller would get, every refused field, exit 2', async () => {
    const { code, output } = await translate({ model: 'gpt-4o', prompt: 'Hello', echo: true, top_k: 3 });
    expect(code).toBe(2);
    expect(output).toMatchObject({
      verdict: 'rejected',
      error: { status: 400, body: { error: { param: 'top_k', code: 'unsupported_parameter' } } },
    });
    expect(
      (output.changes as { field: string; action: string }[])
        .filter((change) => change.action === 'rejected')
        .map((change) => change.field),
    ).toEqual(['top_k', 'echo']);
  });

  test("one fix for one refusal: tools on llama-server without jinja name `jinja: true` in the changes and in the caller's error alike", async () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    const { code, output } = await translate({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools }, ['--to', 'llama-server']);
    expect(code).toBe(2);
    const change = (output.changes as { field: string; reason: string }[]).find(({ field }) => field === 'tools');
    const { message } = (output.error as { body: { error: { message: string } } }).body.error;
    expect(change?.reason).toContain('set `jinja: true`');
    expect(message).toContain('set `jinja: true`');
    expect(message).not.toContain('dropUnsupported');
  });

  test('an approximation is lossy: exit 1', async () => {
    const { code, output } = await translate({ model: 'gpt-4o', prompt: 'Hello', reasoning_effort: 3000 });
    expect(code).toBe(1);
    expect(output.verdict).toBe('lossy');
  });

  test('--endpoint chooses the dialect; --to a kind needs no config; --speaks overrides its default', async () => {
    const { output } = await translate({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], top_k: 3 }, [
      '--to',
      'openai',
      '--endpoint',
      'chat',
    ]);
    expect(output).toMatchObject({
      dialect: 'openai-chat',
      backend: 'openai',
      verdict: 'rejected',
      error: { body: { error: { param: 'top_k' } } },
    });
    const completions = await translate({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, [
      '--to',
      'fireworks',
      '--speaks',
      'completions',
    ]);
    expect((completions.output.upstream as { endpoint: string }[])[0].endpoint).toBe('/completions');
  });

  test('--model routes (and sends) another model name', async () => {
    const { output } = await translate({ model: 'a', prompt: 'Hi' }, ['--to', 'vllm', '--model', 'b']);
    expect((output.upstream as { body: { model: string } }[])[0].body.model).toBe('b');
  });

  test('a malformed request: exit 2 with the validation error, never a stack trace', async () => {
    const { code, output, err } = await translate('{"model": 1, "prompt": "x"}', ['--to', 'openai']);
    expect(code).toBe(2);
    expect(output).toMatchObject({ verdict: 'invalid', error: { status: 422 } });
    expect(err).toBe('');
  });

  test('a Responses request: found by its input or instructions (or --endpoint responses), translated like the others', async () => {
    const body = { model: 'gpt-4o', instructions: 'Be brief.', input: 'Hi', include: ['reasoning.encrypted_content'] };
    expect(dialectFor(undefined, body).name).toBe('openai-responses');
    expect(dialectFor(undefined, { model: 'm', instructions: 'Be brief.' }).name).toBe('openai-responses');
    // A Responses prompt is a template object; a completions prompt is text or tokens.
    expect(dialectFor(undefined, { model: 'm', input: 'Hi', prompt: { id: 'pmpt_1' } }).name).toBe('openai-responses');
    expect(dialectFor(undefined, { model: 'm', prompt: 'Hi' }).name).toBe('fireworks-completions');
    expect(dialectFor(undefined, { model: 'm', messages: [], input: 'x' }).name).toBe('openai-chat');
    const { code, output } = await translate({ model: 'gpt-4o', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 32 }, [
      '--to',
      'openai',
    ]);
    expect(code).toBe(0);
    expect(output).toMatchObject({ dialect: 'openai-responses', verdict: 'lossless' });
    expect((output.upstream as { body: unknown }[])[0].body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_completion_tokens: 32,
    });
    // --endpoint says so explicitly (by name or path); a chat body read as Responses is malformed.
    for (const endpoint of ['responses', '/v1/responses']) {
      const named = await translate(body, ['--to', 'openai', '--endpoint', endpoint]);
      // include reasoning.encrypted_content is served by the running proxy (it seals the reasoning): nothing lost.
      expect(named).toMatchObject({ code: 0, output: { dialect: 'openai-responses', verdict: 'lossless' } });
      expect(named.output.changes as unknown[]).toContainEqual(expect.objectContaining({ field: 'include', action: 'emulated' }));
    }
    expect(
      await translate({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, ['--to', 'openai', '--endpoint', 'responses']),
    ).toMatchObject({ code: 2, output: { verdict: 'invalid', dialect: 'openai-responses' } });
    expect(
      ['chat', '/v1/chat/completions', 'https://api.example.com/v1/completions', '/v1/responses', 'embeddings'].map(endpointNamed),
    ).toEqual(['chat', 'chat', 'completions', 'responses', undefined]);
    expect(['messages', '/v1/messages?beta=true'].map(endpointNamed)).toEqual(['messages', 'messages']);
    // A Messages body is told from a chat one by what only Anthropic's API has.
    const system = { model: 'm', max_tokens: 8, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] };
    const toolResult = {
      model: 'm',
      max_tokens: 8,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] }],
    };
    const chatBody = { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] };
    const flatTools = { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }], tools: [{ name: 'f', input_schema: {} }] };
    const chatTools = { ...flatTools, tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] };
    expect([system, toolResult, flatTools, chatBody, chatTools].map((candidate) => dialectFor(undefined, candidate).name)).toEqual([
      'anthropic-messages',
      'anthropic-messages',
      'anthropic-messages',
      'openai-chat',
      'openai-chat',
    ]);
    const claudeCode = await translate(system, ['--to', 'openai']);
    expect(claudeCode).toMatchObject({ output: { dialect: 'anthropic-messages' } });
    expect(claudeCode.output.changes).toContainEqual(expect.objectContaining({ field: 'system', action: 'converted', to: 'messages' }));
  });

  test('--as responses: a chat request as the Responses request it would become, and its changes; --as chat back', async () => {
    const chat = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_completion_tokens: 32,
    };
    const there = await translate(chat, ['--as', 'responses']);
    expect(there).toEqual({
      code: 0,
      err: '',
      output: {
        object: 'dialect.migration',
        from: 'openai-chat',
        to: 'openai-responses',
        verdict: 'lossless',
        changes: [
          {
            field: 'messages',
            action: 'converted',
            to: 'input',
            lossy: false,
            reason: "each message an input item; text parts as input_text (an assistant's as output_text)",
          },
          {
            field: 'messages[0]',
            action: 'converted',
            to: 'instructions',
            lossy: false,
            reason: 'the leading system message is the instructions',
          },
          {
            field: 'max_completion_tokens',
            action: 'renamed',
            to: 'max_output_tokens',
            lossy: false,
            reason: 'the Responses API calls it max_output_tokens',
          },
        ],
        body: { model: 'gpt-4o', instructions: 'Be brief.', input: [{ role: 'user', content: 'Hi' }], max_output_tokens: 32 },
      },
    });
    const back = await translate(there.output.body, ['--as', 'chat', '--model', 'gpt-4.1']);
    expect(back).toMatchObject({
      code: 0,
      output: { from: 'openai-responses', to: 'openai-chat', verdict: 'lossless', body: { ...chat, model: 'gpt-4.1' } },
    });
    // Lossy: exit 1. A field the proxy refuses (no response store) is still a Responses field: it is dropped, not malformed.
    expect(await translate({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], seed: 1 }, ['--as', 'responses'])).toMatchObject({
      code: 1,
      output: { verdict: 'lossy' },
    });
    expect(await translate({ model: 'm', input: 'Hi', previous_response_id: 'resp_1' }, ['--as', 'chat'])).toMatchObject({
      code: 1,
      output: { verdict: 'lossy', changes: [{ field: 'previous_response_id', action: 'dropped' }, { field: 'input' }] },
    });
    // Malformed: exit 2 with the dialect's error.
    expect(await translate({ model: 'm', input: 'Hi' }, ['--as', 'responses'])).toMatchObject({
      code: 2,
      output: { verdict: 'invalid', error: { status: 400, body: { error: { param: 'messages' } } } },
    });
  });

  test('--as anthropic: a chat request as the Messages request it would become, every change listed; and back to chat and Responses', async () => {
    const chat = {
      model: 'claude-x',
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Hi' },
      ],
      stop: ['END'],
      seed: 3,
      n: 2,
      user: 'u1',
    };
    const there = await translate(chat, ['--as', 'anthropic']);
    expect(there).toMatchObject({
      code: 1,
      output: { object: 'dialect.migration', from: 'openai-chat', to: 'anthropic-messages', verdict: 'lossy' },
    });
    expect(there.output.body).toEqual({
      model: 'claude-x',
      max_tokens: 4096,
      system: [{ type: 'text', text: 'Be brief' }],
      messages: [{ role: 'user', content: 'Hi' }],
      stop_sequences: ['END'],
      metadata: { user_id: 'u1' },
    });
    const changes = there.output.changes as { field: string; action: string; to?: string; lossy: boolean }[];
    // A field the anthropic kind refuses (seed), and one the proxy would fan out itself (n), are lost in the move.
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'seed', action: 'dropped', lossy: true }),
        expect.objectContaining({ field: 'n', action: 'dropped', lossy: true }),
        expect.objectContaining({ field: 'max_tokens', action: 'converted', lossy: true }),
        expect.objectContaining({ field: 'stop', action: 'renamed', to: 'stop_sequences' }),
        expect.objectContaining({ field: 'user', to: 'metadata' }),
      ]),
    );

    const messages = {
      model: 'claude-x',
      max_tokens: 512,
      messages: [
        { role: 'user', content: 'Add' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'add', input: { a: 1 } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '2' }] },
      ],
      tools: [{ name: 'add', input_schema: { type: 'object' } }],
      top_k: 5,
      stop_sequences: ['END'],
    };
    const asChat = await translate(messages, ['--as', 'chat']);
    expect(asChat).toMatchObject({ code: 1, output: { from: 'anthropic-messages', to: 'openai-chat', verdict: 'lossy' } });
    expect(asChat.output.body).toMatchObject({
      messages: [
        { role: 'user', content: 'Add' },
        { role: 'assistant', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'add', arguments: '{"a":1}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: '2' },
      ],
      stop: ['END'],
    });
    expect(asChat.output.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'top_k', action: 'dropped' })]));

    // Messages -> Responses goes through chat: the changes name the caller's fields, not chat's.
    const asResponses = await translate(messages, ['--as', 'responses']);
    expect(asResponses).toMatchObject({ code: 1, output: { from: 'anthropic-messages', to: 'openai-responses' } });
    expect(asResponses.output.body).toMatchObject({ max_output_tokens: 512 });
    const moved = asResponses.output.changes as { field: string; to?: string }[];
    expect(moved).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'max_tokens', to: 'max_output_tokens' })]));
    expect(moved.some((change) => change.field === 'max_completion_tokens' || change.field === 'stop')).toBe(false);
  });

  test('a valid Responses request with three fields the proxy refuses: rejected (not malformed), all three listed, and what the rest becomes', async () => {
    const body = {
      model: 'gpt-4o',
      input: 'Hi',
      previous_response_id: 'resp_123',
      tools: [{ type: 'web_search_preview' }],
      tool_choice: { type: 'web_search_preview' },
      background: true,
    };
    const { code, output } = await translate(body, ['--to', 'openai']);
    expect(code).toBe(2);
    expect(output).toMatchObject({ verdict: 'rejected', error: { status: 400, body: { error: { param: 'previous_response_id' } } } });
    const rejected = (output.changes as { field: string; action: string }[]).filter((change) => change.action === 'rejected');
    // An offered hosted tool is dropped with a warning; one the tool choice forces is refused.
    expect(rejected.map((change) => change.field)).toEqual(['previous_response_id', 'tool_choice', 'background']);
    expect(output.upstream).toEqual([expect.objectContaining({ body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] } })]);
    // Malformed is still malformed: an unknown field is not a refusal the proxy makes.
    expect(await translate({ model: 'gpt-4o', input: 'Hi', nonsense: 1 }, ['--to', 'openai'])).toMatchObject({
      output: { verdict: 'invalid' },
    });
  });

  test('a field the plan converted but the wire builder then left out is reported as dropped, not as sent', async () => {
    // reasoning_effort becomes a thinking budget, which max_completion_tokens 256 leaves no room for on Anthropic.
    const body = { model: 'm', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'low', max_completion_tokens: 256 };
    const moved = await translate(body, ['--to', 'anthropic']);
    expect(moved.output.changes).toContainEqual(
      expect.objectContaining({
        field: 'reasoning_effort',
        action: 'dropped',
        reason: expect.stringMatching(/^thinking not sent: max_completion_tokens 256/),
      }),
    );
    expect((moved.output.upstream as { body: Record<string, unknown> }[])[0].body.thinking).toBeUndefined();
  });

  test('--as misuse: an unknown API, a backend beside it, an --endpoint that contradicts it', async () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
    expect((await translate(body, ['--as', 'completions'])).err).toMatch(/^dialect-proxy translate: --as: chat, responses or anthropic/);
    expect((await translate(body, ['--as', 'chat', '--endpoint', 'chat'])).err).toMatch(
      /^dialect-proxy translate: the request is an OpenAI Chat Completions request already; --as chat writes one/,
    );
    expect((await translate({ model: 'm', prompt: 'Hi' }, ['--as', 'anthropic'])).err).toMatch(
      /--as converts between Chat Completions, Responses, Anthropic Messages and Gemini requests; this is an OpenAI\/Fireworks Completions request/,
    );
    expect((await translate(body, ['--as', 'responses', '--to', 'openai'])).err).toMatch(
      /^dialect-proxy translate: --as and --to exclude each other/,
    );
    expect(await translate(body, ['--as', 'responses', '--endpoint', 'completions'])).toMatchObject({ code: 2, output: {} });
    expect(await translate(body, ['--as', 'responses', '--endpoint', 'chat'])).toMatchObject({ code: 0 });
  });

  test('misuse: one line on stderr (and the usage for a bad option), exit 2', async () => {
    const unknownKind = await translate({ model: 'm', prompt: 'x' }, ['--to', 'nope']);
    expect(unknownKind).toMatchObject({ code: 2, output: {} });
    expect(unknownKind.err).toBe(
      'dialect-proxy translate: no backend kind "nope" (one of llama-cpp, openai, fireworks, llama-server, vllm, anthropic, gemini)\n',
    );
    const both = await translate({ model: 'm', prompt: 'x' }, ['--to', 'openai', '--config', configPath]);
    expect(both.err).toMatch(/^dialect-proxy translate: --to and --config exclude each other/);
    const worker = await translate({ model: 'm', prompt: 'x' }, ['--to', 'llama-cpp', '--speaks', 'chat']);
    expect(worker.err).toBe('dialect-proxy translate: a llama-cpp backend always speaks completions; --speaks does not apply\n');
  });
});

describe('dialect-proxy translate --responses, for a Responses request', () => {
  test('a recorded chat stream comes back as the typed Responses events, ending with response.completed', async () => {
    const reply = join(dir, 'reply.sse');
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    writeFileSync(reply, chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Hello' }) + chunk({}, 'stop') + 'data: [DONE]\n\n');
    const { code, output } = await translate({ model: 'm', instructions: 'Be brief.', input: 'Hi', stream: true }, [
      '--config',
      configPath,
      '--responses',
      reply,
    ]);
    expect(code).toBe(0);
    expect(output).toMatchObject({ dialect: 'openai-responses', ok: true, stream: true });
    const events = output.chunks as { type: string; sequence_number: number }[];
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    // Named events and no [DONE], as the Responses API sends them.
    expect(output.sse).toMatch(/^event: response\.created\ndata: /);
    expect(output.sse).not.toMatch(/\[DONE\]/);
  });
});
