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
    expect(foreign).toMatchObject({
      reasoning: 'Hmm.',
      reasoningSignature: 'EqQBCkYI',
      vendor: { anthropic: { redactedReasoning: ['opaque'] } },
    });
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
      offered: true,
    });
    expect(
      parseMessagesRequest({
        ...base,
        thinking: { type: 'adaptive', display: 'omitted' },
        output_config: { effort: 'medium' },
        messages: [],
      }),
    ).toMatchObject({
      reasoning: { effort: 'medium', offered: true },
      echoedParams: { thinking_display: 'omitted' },
    });
    // Each is offered, not required: a backend without thinking settings goes without (plan-reasoning.ts).
    expect(parseMessagesRequest({ ...base, thinking: { type: 'adaptive' }, messages: [] }).reasoning).toEqual({
      effort: 'adaptive',
      offered: true,
    });
    expect(parseMessagesRequest({ ...base, thinking: { type: 'disabled' }, messages: [] }).reasoning).toEqual({
      effort: 'none',
      offered: true,
    });
    // Beside thinking off or a budget (Claude Code's helper calls send the first), the effort is left out with a warning.
    for (const thinking of [{ type: 'enabled', budget_tokens: 2048 }, { type: 'disabled' }]) {
      const request = parseMessagesRequest({ ...base, thinking, output_config: { effort: 'high' }, messages: [] });
      expect(request.reasoning).toEqual(
        thinking.type === 'disabled' ? { effort: 'none', offered: true } : { budgetTokens: 2048, offered: true },
      );
      expect(request.warnings).toEqual([expect.stringMatching(/^output_config\.effort "high" not sent: thinking\./)]);
    }
  });

  test('tool_choice any is required, disable_parallel_tool_use turns parallel calls off; a named tool must be declared', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }];
    const request = parseMessagesRequest({ ...base, tools, tool_choice: { type: 'any', disable_parallel_tool_use: true }, messages: [] });
    expect(request).toMatchObject({
      toolChoice: 'required',
      parallelToolCalls: false,
      tools: [{ name: 'f', parameters: { type: 'object' }, vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } } }],
    });
    expect(refusal({ ...base, tools, tool_choice: { type: 'tool', name: 'g' }, messages: [] }).param).toBe('tool_choice.name');
  });

  test('what the proxy cannot carry is refused by name', () => {
    // Offered, an Anthropic-defined tool is dropped with a warning (below); forced, it is refused by name.
    const bash = { type: 'bash_20250124', name: 'bash' };
    expect(refusal({ ...base, tools: [bash], tool_choice: { type: 'tool', name: 'bash' }, messages: [] }).param).toBe('tool_choice');
    expect(refusal({ ...base, tools: [bash], tool_choice: { type: 'any' }, messages: [] }).param).toBe('tool_choice');
    const searchResult = { role: 'user', content: [{ type: 'search_result', source: 'x', title: 't', content: [] }] };
    expect(refusal({ ...base, messages: [searchResult] }).param).toBe('messages[0].content[0]');
    const byFile = { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] };
    expect(refusal({ ...base, messages: [byFile] }).param).toBe('messages[0].content[0].source.type');
  });

  test("an offered Anthropic-defined tool is dropped with a warning naming it; the caller's own tools stay (offered is not forced)", () => {
    const own = { name: 'f', input_schema: { type: 'object' } };
    const request = parseMessagesRequest({
      ...base,
      tools: [
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
        own,
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      ],
      messages: [],
    });
    expect(request.tools).toEqual([{ name: 'f', parameters: { type: 'object' } }]);
    expect(request.warnings).toEqual([
      expect.stringMatching(/^tools\[0\] dropped: 'web_search_20250305', a server tool, which runs at Anthropic/),
      expect.stringMatching(/^tools\[2\] dropped: 'text_editor_20250728', an Anthropic-defined tool the client runs/),
    ]);
    // With none of the caller's tools left, tool_choice auto has nothing to choose from: not sent.
    const alone = parseMessagesRequest({
      ...base,
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
      tool_choice: { type: 'auto' },
      messages: [],
    });
    expect(alone.toolChoice).toBeUndefined();
  });

  test("a system message among the turns (Claude Code's): its output_config.effort is the answer's, its clear_at is honoured", () => {
    const system = (extra: Record<string, unknown>) => ({ role: 'system', content: 'Be brief.', ...extra });
    const request = parseMessagesRequest({
      ...base,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      messages: [{ role: 'user', content: 'Hi' }, system({ output_config: { effort: 'low' } })],
    });
    // Later than the request's own effort, the message's holds from there on: for the answer.
    expect(request.reasoning).toEqual({ effort: 'low', offered: true });
    expect(request.origins['reasoning.effort']).toBe('messages[1].output_config.effort');
    expect(request.messages?.map((message) => message.role)).toEqual(['user', 'system']);
    // Cleared at the next user message: a user turn after it, so it applies no more (its effort neither).
    const cleared = parseMessagesRequest({
      ...base,
      output_config: { effort: 'high' },
      messages: [
        { role: 'user', content: 'Hi' },
        system({ clear_at: 'next_user_message', output_config: { effort: 'low' } }),
        { role: 'user', content: 'Again' },
      ],
    });
    expect(cleared.messages?.map((message) => message.role)).toEqual(['user', 'user']);
    expect(cleared.reasoning).toEqual({ effort: 'high', offered: true });
  });

  test('the anthropic-beta header: its betas, each once, kept for an anthropic backend; a value that is no beta name is a 400', () => {
    const headers = { 'anthropic-beta': 'claude-code-20250219, context-management-2025-06-27,,claude-code-20250219' };
    expect(parseMessagesRequest({ ...base, messages: [] }, headers).vendor?.anthropic?.betas).toEqual([
      'claude-code-20250219',
      'context-management-2025-06-27',
    ]);
    expect(parseMessagesRequest({ ...base, messages: [] }).vendor).toBeUndefined();
    expect(() => parseMessagesRequest({ ...base, messages: [] }, { 'anthropic-beta': 'a b' })).toThrow(
      expect.objectContaining({ param: 'anthropic-beta' }),
    );
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
      vendor: { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' }, contextManagement: { edits: [] } } },
    });
    expect(request.origins.user).toBe('metadata.user_id');
    expect(request.origins['vendor.anthropic.cacheControl']).toBe('cache_control');
  });

  test('keys the document accepts but the proxy does not carry, or values it does not know, are refused by name, never dropped', () => {
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
