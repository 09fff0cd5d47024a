/** NeutralRequest -> Anthropic Messages bodies: a small request in, the exact body out. */
import { anthropicTable } from '../../../adapters/anthropic/fields.js';
import { toWireBody } from '../../../adapters/anthropic/to-wire-body.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { plannedWire } from '../../helpers/planned-wire.js';

/** As a caller's request reaches the wire: planned for a anthropic backend, then built. */
let planned: Awaited<ReturnType<typeof plannedWire>>;
beforeAll(async () => {
  planned = await plannedWire('anthropic');
});

const budgetTable = anthropicTable({ defaultMaxTokens: 4096 });
const adaptiveTable = anthropicTable({ adaptiveThinking: true, defaultMaxTokens: 4096 });

const chat = (extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'claude-test'),
  messages: [{ role: 'user', content: 'Hi' }],
  ...extra,
});

const wire = (request: NeutralRequest, table = budgetTable) => toWireBody(request, { table, defaultMaxTokens: 4096 });

function rejection(request: NeutralRequest, table = budgetTable): { status: number; param: string | null; message: string } {
  try {
    if (table === budgetTable) planned(request);
    else wire(request, table);
  } catch (error) {
    if (error instanceof ProxyError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('anthropic toWireBody', () => {
  test('the smallest request: max_tokens is required, so the default is filled in, and said in a warning', () => {
    const request = chat();
    expect(wire(request)).toEqual({ model: 'claude-test', max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] });
    expect(request.warnings).toEqual([
      "max_tokens was sent as 4096 (the backend's defaultMaxTokens 4096): Anthropic requires a cap and the request set none",
    ]);
    const capped = chat({ limits: { maxTokens: 16, stop: [], onContextOverflow: 'truncate' } });
    wire(capped);
    expect(capped.warnings).toEqual([]);
  });

  test('sampling and limits: the caller max_tokens, stop_sequences, top_k; stream', () => {
    const request = chat({
      sampling: { temperature: 0.5, topP: 0.9, topK: 40 },
      limits: { maxTokens: 16, stop: ['\n\n'], onContextOverflow: 'truncate' },
      stream: { includeUsage: false, tokenIds: false },
      user: 'user-7',
      vendor: { anthropic: { contextManagement: { edits: [{ type: 'clear_tool_uses_20250919' }] } } },
    });
    expect(wire(request)).toEqual({
      model: 'claude-test',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stop_sequences: ['\n\n'],
      metadata: { user_id: 'user-7' },
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      stream: true,
    });
  });

  test('system and developer messages become the system prompt; a late one is named in a warning', () => {
    const request = chat({
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'developer',
          content: [{ type: 'text', text: 'Use French.', vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } } }],
        },
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'Late rule.' },
      ],
    });
    expect(wire(request)).toMatchObject({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use French.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Late rule.' },
      ],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(request.warnings).toEqual([
      'messages[3] (system) was sent in the system prompt: Anthropic takes system text only before the conversation',
      "max_tokens was sent as 4096 (the backend's defaultMaxTokens 4096): Anthropic requires a cap and the request set none",
    ]);
  });

  test('a tool loop: tool_use with its input parsed, tool results in one user turn with the text after them', () => {
    const request = chat({
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Looking.',
          toolCalls: [
            { id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
            { id: 'toolu_2', name: 'weather', arguments: '' },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: 'Sunny' },
        { role: 'tool', toolCallId: 'toolu_2', content: [{ type: 'text', text: 'no such city' }], toolError: true },
        { role: 'user', content: 'And tomorrow?' },
      ],
    });
    expect(wire(request).messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'no such city' }], is_error: true },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
  });

  test("a call's arguments that are not a JSON object: a 400 naming them", () => {
    const request = chat({
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: '[1, 2]' }] },
      ],
    });
    expect(rejection(request)).toMatchObject({ status: 400, param: 'messages[1].tool_calls[0].function.arguments' });
  });

  test('images: data URLs as base64 sources, http URLs as url sources; PDFs as documents; audio is a 400', () => {
    const request = chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
            { type: 'image', url: 'https://example.com/cat.jpg' },
            { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
      ],
    });
    expect(wire(request).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
        ],
      },
    ]);
    const audio = chat({ messages: [{ role: 'user', content: [{ type: 'audio', data: 'AAA=', format: 'wav' }] }] });
    expect(rejection(audio)).toMatchObject({ status: 400, param: 'messages[0].content[0].type' });
  });

  test('earlier reasoning: a signed thinking block first, redacted thinking kept; unsigned reasoning left out with a warning', () => {
    const request = chat({
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: 'Hello',
          reasoning: 'They greet me.',
          reasoningSignature: 'sig-1',
          vendor: { anthropic: { redactedReasoning: ['EnC0dEd'] } },
        },
        { role: 'user', content: 'Again' },
        { role: 'assistant', content: 'Hello again', reasoning: 'Not signed.' },
        { role: 'user', content: 'Bye' },
      ],
    });
    expect(wire(request).messages).toEqual([
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'They greet me.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'EnC0dEd' },
          { type: 'text', text: 'Hello' },
        ],
      },
      { role: 'user', content: 'Again' },
      { role: 'assistant', content: 'Hello again' },
      { role: 'user', content: 'Bye' },
    ]);
    expect(request.warnings).toEqual([
      'messages[3].reasoning_content not sent: Anthropic takes earlier thinking only with the signature it came with',
      "max_tokens was sent as 4096 (the backend's defaultMaxTokens 4096): Anthropic requires a cap and the request set none",
    ]);
  });

  test('tools and cache breakpoints: input_schema, strict, cache_control on tools, parts and the request', () => {
    const request = chat({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Long document', vendor: { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } } }],
        },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'toolu_1', name: 'now', arguments: '{}', vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } } }],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: '12:00' },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { name: 'now', vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      ],
      vendor: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    });
    expect(wire(request)).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Long document', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
        // A tool_use block's breakpoint goes where it was.
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'now', input: {}, cache_control: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '12:00' }] },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Weather of a city',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
        { name: 'now', input_schema: { type: 'object', properties: {} }, cache_control: { type: 'ephemeral' } },
      ],
      cache_control: { type: 'ephemeral' },
    });
  });

  test.each([
    ['auto', undefined, { type: 'auto' }],
    ['required', undefined, { type: 'any' }],
    ['none', undefined, { type: 'none' }],
    [{ name: 'weather' }, undefined, { type: 'tool', name: 'weather' }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
  ] as const)('tool_choice %j with parallel_tool_calls %j', (toolChoice, parallelToolCalls, expected) => {
    const request = chat({
      tools: [{ name: 'weather' }],
      ...(toolChoice !== undefined ? { toolChoice } : {}),
      ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
    });
    expect(wire(request).tool_choice).toEqual(expected);
  });

  test('budget thinking: a budget is enabled thinking, added to the default max_tokens; none disables it', () => {
    expect(wire(chat({ reasoning: { budgetTokens: 2048 } }))).toMatchObject({
      max_tokens: 6144,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(wire(chat({ reasoning: { effort: 'none' } }))).toMatchObject({ max_tokens: 4096, thinking: { type: 'disabled' } });
  });

  test('budget thinking: raised to 1024, or halved to fit under the caller max_tokens, with warnings', () => {
    const small = chat({ reasoning: { budgetTokens: 500 } });
    expect(wire(small)).toMatchObject({ max_tokens: 5120, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(small.warnings).toEqual([
      'reasoning_effort: a thinking budget of 500 tokens was sent as 1024, the least Anthropic takes',
      "max_tokens was sent as 5120 (the backend's defaultMaxTokens 4096 plus the thinking budget): Anthropic requires a cap and the request set none",
    ]);

    const fitted = chat({ reasoning: { budgetTokens: 16384 }, limits: { maxTokens: 4000, stop: [], onContextOverflow: 'truncate' } });
    expect(wire(fitted)).toMatchObject({ max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 } });
    expect(fitted.warnings).toEqual(['reasoning_effort: a thinking budget of 16384 tokens was sent as 2000, to fit under max_tokens 4000']);

    const none = chat({ reasoning: { budgetTokens: 2048 }, limits: { maxTokens: 1500, stop: [], onContextOverflow: 'truncate' } });
    expect(wire(none)).not.toHaveProperty('thinking');
    expect(none.warnings[0]).toMatch(/thinking not sent: max_tokens 1500 leaves no room/);
  });

  test('adaptive thinking: an effort is thinking adaptive + output_config.effort, beside a json_schema format', () => {
    const request = chat({
      reasoning: { effort: 'high' },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', additionalProperties: false }, strict: true },
    });
    expect(wire(request, adaptiveTable)).toMatchObject({
      max_tokens: 4096,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object', additionalProperties: false } } },
    });
    expect(wire(chat({ reasoning: { effort: 'adaptive' } }), adaptiveTable)).toMatchObject({ thinking: { type: 'adaptive' } });
    expect(wire(chat({ reasoning: { effort: 'none' } }), adaptiveTable)).toMatchObject({ thinking: { type: 'disabled' } });
  });

  test('service tiers: default is standard_only, priority goes as auto with a warning, another is a 400', () => {
    expect(wire(chat({ serviceTier: 'default' })).service_tier).toBe('standard_only');
    const priority = chat({ serviceTier: 'priority' });
    expect(wire(priority).service_tier).toBe('auto');
    expect(priority.warnings[0]).toMatch(/service_tier "priority" was sent as "auto"/);
    expect(rejection(chat({ serviceTier: 'flex' }))).toMatchObject({ status: 400, param: 'service_tier' });
  });

  test('a field Anthropic does not take is a 400 naming the caller field', () => {
    const request = chat({ sampling: { seed: 7 }, origins: { 'sampling.seed': 'seed' } });
    expect(rejection(request)).toEqual({
      status: 400,
      param: 'seed',
      message: expect.stringMatching(/^seed is not supported by this backend \(backend "b", kind anthropic;/),
    });
    expect(rejection(chat({ responseFormat: { type: 'json_object' } }))).toMatchObject({ status: 400, param: 'response_format' });
  });
});
