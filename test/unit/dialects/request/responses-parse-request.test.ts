/** dialects/openai-responses: every key of an input item, content part or tool is read, bookkeeping, or refused by name. */
import { parseResponsesRequest } from '../../../../src/dialects/openai-responses/parse-request.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';

const parse = (body: Record<string, unknown>) => parseResponsesRequest({ model: 'm', ...body });

function refusal(body: Record<string, unknown>): { param: string | null; code: string | null; message: string } {
  try {
    parse(body);
  } catch (error) {
    if (error instanceof ProxyError && error.status === 400) return { param: error.param, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a 400');
}

describe('Responses input items', () => {
  test("an earlier output's id and status are bookkeeping: read past", () => {
    const request = parse({
      input: [
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }],
        },
      ],
    });
    expect(request.messages).toEqual([{ role: 'assistant', content: 'Hi' }]);
  });

  test('a key no item has is a 400 naming it', () => {
    expect(refusal({ input: [{ role: 'user', content: 'Hi', colour: 'red' }] })).toMatchObject({
      param: 'input[0].colour',
      message: 'Unrecognized field: input[0].colour.',
    });
  });

  test('an OpenAI-only key is refused with the reason, not dropped', () => {
    const caller = { type: 'program', id: 'prog_1' };
    expect(refusal({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', caller }] })).toMatchObject({
      param: 'input[0].caller',
      code: 'unsupported_parameter',
      message: expect.stringMatching(/programmatic tool calling/),
    });
    expect(refusal({ input: [{ role: 'assistant', content: 'Hi', phase: 'commentary' }] })).toMatchObject({
      param: 'input[0].phase',
      code: 'unsupported_parameter',
    });
  });

  test('a content part key no part has is a 400 naming it', () => {
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi', colour: 'red' }] }] })).toMatchObject({
      param: 'input[0].content[0].colour',
    });
  });

  test('a prompt cache breakpoint is kept on its part, as chat keeps it, and keeps text parts apart', () => {
    const breakpoint = { mode: 'explicit' };
    const request = parse({
      input: [
        {
          type: 'function_call_output',
          call_id: 'c',
          output: [{ type: 'input_text', text: 'Sunny', prompt_cache_breakpoint: breakpoint }],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'tool', toolCallId: 'c', content: [{ type: 'text', text: 'Sunny', extra: { prompt_cache_breakpoint: breakpoint } }] },
    ]);
  });
});

describe('Responses tools', () => {
  test("a function tool's OpenAI-only keys are refused with the reason", () => {
    expect(refusal({ input: 'Hi', tools: [{ type: 'function', name: 'f', output_schema: { type: 'object' } }] })).toMatchObject({
      param: 'tools[0].output_schema',
      code: 'unsupported_parameter',
    });
  });

  test('a deferred tool is simply there from the start (no hosted tool search here)', () => {
    expect(parse({ input: 'Hi', tools: [{ type: 'function', name: 'f', defer_loading: true }] }).tools).toEqual([{ name: 'f' }]);
  });

  test('an offered hosted tool is dropped with a warning naming it, whatever keys it has', () => {
    const request = parse({
      input: 'Hi',
      tools: [
        { type: 'function', name: 'f' },
        { type: 'web_search', search_context_size: 'low' },
      ],
    });
    expect(request.tools).toEqual([{ name: 'f' }]);
    expect(request.warnings).toEqual([expect.stringMatching(/^tools\[1\] dropped: 'web_search', a hosted tool/)]);
  });

  test('a built-in tool the client runs (local_shell) is dropped too, with its own reason', () => {
    const request = parse({ input: 'Hi', tools: [{ type: 'local_shell' }] });
    expect(request.tools).toEqual([]);
    expect(request.warnings).toEqual([expect.stringMatching(/^tools\[0\] dropped: 'local_shell', a built-in tool the client runs/)]);
  });

  test('a tool choice forcing a built-in tool is refused by name', () => {
    expect(refusal({ input: 'Hi', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search_preview' } })).toMatchObject({
      param: 'tool_choice',
      code: 'unsupported_parameter',
      message: expect.stringMatching(/^tool_choice forces 'web_search_preview', a hosted tool/),
    });
    expect(refusal({ input: 'Hi', tools: [{ type: 'web_search' }], tool_choice: 'required' })).toMatchObject({ param: 'tool_choice' });
    expect(
      refusal({
        input: 'Hi',
        tools: [{ type: 'file_search' }],
        tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'file_search' }] },
      }),
    ).toMatchObject({ param: 'tool_choice' });
  });

  test("an allowed_tools list loses its built-in tools and keeps the caller's own", () => {
    const request = parse({
      input: 'Hi',
      tools: [{ type: 'function', name: 'f' }, { type: 'function', name: 'g' }, { type: 'web_search' }],
      tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] },
    });
    expect(request.tools).toEqual([{ name: 'f' }]);
  });
});

describe('Responses namespace tools', () => {
  const namespace = {
    type: 'namespace',
    name: 'crm',
    description: 'Customer records.',
    tools: [
      { type: 'function', name: 'find', description: 'Finds a customer.', parameters: { type: 'object' }, strict: false },
      { type: 'custom', name: 'query', description: 'Runs a query.' },
    ],
  };

  test("each tool of a namespace is a tool of its own, named '<namespace>__<name>', the namespace's description first", () => {
    const request = parse({ input: 'Hi', tools: [{ type: 'function', name: 'f' }, namespace] });
    expect(request.tools).toEqual([
      { name: 'f' },
      { name: 'crm__find', description: 'crm: Customer records.\n\nFinds a customer.', parameters: { type: 'object' }, strict: false },
      { name: 'crm__query', description: 'crm: Customer records.\n\nRuns a query.', custom: { format: { type: 'text' } } },
    ]);
    expect(request.warnings).toEqual([]);
  });

  test('a namespaced call in the history (and its output) goes by the flattened name', () => {
    const request = parse({
      input: [
        { type: 'function_call', call_id: 'c1', namespace: 'crm', name: 'find', arguments: '{}', status: 'completed' },
        { type: 'function_call_output', call_id: 'c1', namespace: 'crm', name: 'find', output: 'Ada' },
      ],
      tools: [namespace],
    });
    expect(request.messages).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'crm__find', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: 'Ada' },
    ]);
  });

  test('a tool choice may name a namespaced tool with its namespace', () => {
    const request = parse({ input: 'Hi', tools: [namespace], tool_choice: { type: 'function', namespace: 'crm', name: 'find' } });
    expect(request.toolChoice).toEqual({ name: 'crm__find' });
  });

  test('a namespace holds function and custom tools only', () => {
    expect(refusal({ input: 'Hi', tools: [{ ...namespace, tools: [{ type: 'web_search' }] }] })).toMatchObject({
      param: 'tools[0].tools[0].type',
    });
  });
});

describe('Responses items of hosted tools in the history', () => {
  test('a web search call is dropped with a warning: the answer that used it follows as text', () => {
    const request = parse({
      input: [
        { role: 'user', content: 'News?' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'news' } },
        { role: 'assistant', content: 'Cats.' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'News?' },
      { role: 'assistant', content: 'Cats.' },
    ]);
    expect(request.warnings).toEqual([expect.stringMatching(/^input\[1\] dropped: a 'web_search_call' item/)]);
  });

  test('a call of a built-in tool the client ran carries the conversation: refused by name', () => {
    expect(refusal({ input: [{ type: 'local_shell_call', id: 'ls_1', call_id: 'c', status: 'completed', action: {} }] })).toMatchObject({
      param: 'input[0].type',
      code: 'unsupported_parameter',
    });
  });
});

describe('Codex CLI metadata', () => {
  test('client_metadata is not sent, with a warning; prompt_cache_key is the cache key and the affinity key', () => {
    const request = parse({ input: 'Hi', client_metadata: { thread_id: 't' }, prompt_cache_key: 'k' });
    expect(request.warnings).toEqual([expect.stringMatching(/^client_metadata not sent/)]);
    expect(request).toMatchObject({ promptCacheKey: 'k', affinityKey: 'k' });
  });
});
