import { parseMessagesRequest } from '../../../../src/dialects/anthropic-messages/parse-request.js';
import { proxySignature } from '../../../../src/dialects/anthropic-messages/thinking-signature.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';

const base = { model: 'claude-x', max_tokens: 64 };

function refusal(body: Record<string, unknown>): ProxyError {
  try {
    parseMessagesRequest(body);
  } catch (error) {
    if (error instanceof ProxyError) return error;
    throw error;
  }
  throw new Error('parsed without a refusal');
}

describe('parseMessagesRequest', () => {
  test('system first, whatever the key order; the caller model kept for the answer', () => {
    const request = parseMessagesRequest({ messages: [{ role: 'user', content: 'Hi' }], ...base, system: 'Be brief.' });
    expect(request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    expect(request.limits.maxTokens).toBe(64);
    expect(request.echoedParams).toEqual({ model: 'claude-x' });
  });

  test('a user turn of tool results and text: tool messages first (is_error kept), then the text as the user turn', () => {
    const request = parseMessagesRequest({
      ...base,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'boom' }], is_error: true },
            { type: 'text', text: 'Again?' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: '{"a":1}' }] },
      { role: 'tool', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'boom' }], toolError: true },
      { role: 'user', content: [{ type: 'text', text: 'Again?' }] },
    ]);
  });

  test("thinking: Anthropic's signature kept, the proxy's own recognised (history only), redacted thinking carried", () => {
    const foreign = parseMessagesRequest({
      ...base,
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Hmm.', signature: 'EqQBCkYI' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Yes.' },
          ],
        },
      ],
    }).messages?.[0];
    expect(foreign).toMatchObject({ reasoning: 'Hmm.', reasoningSignature: 'EqQBCkYI', redactedReasoning: ['opaque'] });
    const own = parseMessagesRequest({
      ...base,
      messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: proxySignature('Hmm.') }] }],
    }).messages?.[0];
    expect(own?.reasoning).toBe('Hmm.');
    expect(own?.reasoningSignature).toBeUndefined();
  });

  test('thinking and output_config meet in the neutral reasoning', () => {
    expect(
      parseMessagesRequest({ ...base, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [] }).reasoning,
    ).toEqual({
      budgetTokens: 2048,
    });
    expect(
      parseMessagesRequest({
        ...base,
        thinking: { type: 'adaptive', display: 'omitted' },
        output_config: { effort: 'medium' },
        messages: [],
      }),
    ).toMatchObject({
      reasoning: { effort: 'medium' },
      echoedParams: { thinking_display: 'omitted' },
    });
    expect(parseMessagesRequest({ ...base, thinking: { type: 'adaptive' }, messages: [] }).reasoning).toEqual({ effort: 'adaptive' });
    expect(parseMessagesRequest({ ...base, thinking: { type: 'disabled' }, messages: [] }).reasoning).toEqual({ effort: 'none' });
    expect(
      refusal({ ...base, thinking: { type: 'enabled', budget_tokens: 2048 }, output_config: { effort: 'high' }, messages: [] }).param,
    ).toBe('output_config.effort');
  });

  test('tool_choice any is required, disable_parallel_tool_use turns parallel calls off; a named tool must be declared', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }];
    const request = parseMessagesRequest({ ...base, tools, tool_choice: { type: 'any', disable_parallel_tool_use: true }, messages: [] });
    expect(request).toMatchObject({
      toolChoice: 'required',
      parallelToolCalls: false,
      tools: [{ name: 'f', parameters: { type: 'object' }, cacheControl: { type: 'ephemeral' } }],
    });
    expect(refusal({ ...base, tools, tool_choice: { type: 'tool', name: 'g' }, messages: [] }).param).toBe('tool_choice.name');
  });

  test('what the proxy cannot carry is refused by name', () => {
    expect(refusal({ ...base, tools: [{ type: 'bash_20250124', name: 'bash' }], messages: [] }).param).toBe('tools[0].type');
    const searchResult = { role: 'user', content: [{ type: 'search_result', source: 'x', title: 't', content: [] }] };
    expect(refusal({ ...base, messages: [searchResult] }).param).toBe('messages[0].content[0]');
    const byFile = { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] };
    expect(refusal({ ...base, messages: [byFile] }).param).toBe('messages[0].content[0].source.type');
  });

  test('metadata.user_id is the user and the affinity key; cache_control and context_management are kept', () => {
    const request = parseMessagesRequest({
      ...base,
      metadata: { user_id: 'u-1' },
      cache_control: { type: 'ephemeral', ttl: '1h' },
      context_management: { edits: [] },
      messages: [],
    });
    expect(request).toMatchObject({
      user: 'u-1',
      affinityKey: 'u-1',
      cacheControl: { type: 'ephemeral', ttl: '1h' },
      contextManagement: { edits: [] },
    });
    expect(request.origins.user).toBe('metadata.user_id');
  });

  test('keys the document accepts but the proxy does not carry are refused by name, never dropped', () => {
    const tool = { name: 'f', input_schema: { type: 'object' } };
    expect(refusal({ ...base, thinking: { type: 'adaptive', block_binding: 'strict' }, messages: [] }).param).toBe(
      'thinking.block_binding',
    );
    expect(refusal({ ...base, thinking: { type: 'adaptive', display: 'updates' }, messages: [] }).param).toBe('thinking.display');
    expect(refusal({ ...base, output_config: { task_budget: { total: 1000 } }, messages: [] }).param).toBe('output_config.task_budget');
    expect(refusal({ ...base, tools: [{ ...tool, input_examples: [{ a: 1 }] }], messages: [] }).param).toBe('tools[0].input_examples');
    expect(refusal({ ...base, messages: [{ role: 'system', content: 'x', clear_at: 'turn' }] }).param).toBe('messages[0].clear_at');
    const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' }, context: 'a memo' };
    expect(refusal({ ...base, messages: [{ role: 'user', content: [document] }] }).param).toBe('messages[0].content[0].context');
    const serverCall = { type: 'tool_use', id: 't', name: 'f', input: {}, caller: { type: 'code_execution_20250825', tool_id: 'x' } };
    expect(refusal({ ...base, messages: [{ role: 'assistant', content: [serverCall] }] }).param).toBe('messages[0].content[0].caller');
    // What holds anyway passes: a deferred tool is simply there, a direct call is every backend's.
    const request = parseMessagesRequest({
      ...base,
      tools: [{ ...tool, defer_loading: true, eager_input_streaming: true }],
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {}, caller: { type: 'direct' } }] }],
    });
    expect(request.tools).toHaveLength(1);
  });
});
