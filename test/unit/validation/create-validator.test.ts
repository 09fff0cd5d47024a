import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestValidator } from '../../../src/validation/index.js';
import { listRequestFields } from '../../helpers/list-request-fields.js';
import { validation } from './load-validation.js';
import { minimalChat, minimalText, richChat, richText } from './request-examples.js';

const { createRequestValidator, defaultOpenapiDir } = validation;

let validator: RequestValidator;

beforeAll(async () => {
  validator = await createRequestValidator();
});

const chat = (extra: Record<string, unknown>) => ({ ...minimalChat, ...extra });
const text = (extra: Record<string, unknown>) => ({ ...minimalText, ...extra });

const minimalResponses = { model: 'gpt-5-mini', input: 'Hi' };
const responses = (extra: Record<string, unknown>) => ({ ...minimalResponses, ...extra });

/** A Responses body that sets every field of our document, with an input item of each kind the proxy translates. */
const richResponses: Record<string, unknown> = {
  model: 'accounts/fireworks/models/kimi-k2-instruct-0905',
  instructions: 'You are a helpful assistant.',
  input: [
    { role: 'developer', content: 'Be brief.' },
    { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Answer in French.' }], status: 'completed' },
    {
      role: 'user',
      content: [
        { type: 'input_text', text: "What's in this image, and what's the weather?", prompt_cache_breakpoint: { mode: 'explicit' } },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        { type: 'input_image', file_id: 'file-1', image_url: null, detail: null },
        { type: 'input_file', filename: 'a.txt', file_data: 'aGk=' },
      ],
    },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Needs the weather.' }],
      content: [{ type: 'reasoning_text', text: 'Call get_weather.' }],
      encrypted_content: null,
      status: 'completed',
    },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: '18C' },
    { type: 'function_call_output', id: 'fco_1', call_id: 'call_2', output: [{ type: 'input_text', text: '18C' }], status: null },
    { type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_3', name: 'run_sql', input: 'SELECT 1' },
    { type: 'custom_tool_call_output', call_id: 'call_3', output: '1' },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      phase: 'final_answer',
      content: [
        {
          type: 'output_text',
          text: 'Il fait 18C.',
          annotations: [{ type: 'url_citation', url: 'https://example.com', start_index: 0, end_index: 1, title: 'x' }],
          logprobs: [{ token: 'Il', logprob: -0.1, bytes: [73, 108], top_logprobs: [] }],
        },
        { type: 'refusal', refusal: 'No.' },
      ],
    },
    { role: 'assistant', content: 'Anything else?' },
    { type: 'item_reference', id: 'msg_0' },
    { id: 'msg_00' },
  ],
  tools: [
    {
      type: 'function',
      name: 'get_weather',
      description: 'Weather',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    },
    {
      type: 'custom',
      name: 'run_sql',
      description: 'Runs SQL',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: "SELECT 1"' },
    },
    { type: 'custom', name: 'echo', format: { type: 'text' } },
    {
      type: 'namespace',
      name: 'crm',
      description: 'Customer records.',
      tools: [
        { type: 'function', name: 'find', parameters: { type: 'object' }, strict: false },
        { type: 'custom', name: 'query' },
      ],
    },
  ],
  tool_choice: { type: 'function', name: 'get_weather' },
  parallel_tool_calls: true,
  max_tool_calls: 4,
  text: {
    format: { type: 'json_schema', name: 'answer', description: 'The answer', schema: { type: 'object' }, strict: true },
    verbosity: 'low',
  },
  reasoning: { effort: 'high', summary: 'auto', context: 'current_turn', mode: 'standard' },
  include: ['reasoning.encrypted_content', 'message.output_text.logprobs'],
  stream: true,
  stream_options: { include_obfuscation: false },
  store: false,
  background: false,
  metadata: { trace: 'abc' },
  max_output_tokens: 256,
  temperature: 0.7,
  top_p: 0.9,
  top_logprobs: 5,
  user: 'user-1',
  safety_identifier: 'user-1',
  prompt_cache_key: 'session-1',
  prompt_cache_retention: '24h',
  prompt_cache_options: { ttl: '30m', mode: 'explicit' },
  previous_response_id: 'resp_1',
  service_tier: 'flex',
  truncation: 'auto',
  prompt: { id: 'pmpt_1', version: '2', variables: { city: 'Paris', logo: { type: 'input_image', file_id: 'file-2' } } },
  moderation: { model: 'omni-moderation-latest', policy: { input: { mode: 'block' }, output: null } },
  conversation: { id: 'conv_1' },
  context_management: [{ type: 'compaction', compact_threshold: 200000 }],
  client_metadata: { thread_id: 'thread-1', 'x-codex-turn-metadata': '{"turn_id":"t"}' },
};

describe('valid requests', () => {
  it('accepts minimal bodies', () => {
    expect(validator.validate('chat', minimalChat)).toEqual([]);
    expect(validator.validate('text', minimalText)).toEqual([]);
  });

  it('accepts a chat body that sets every field of our document', () => {
    expect(Object.keys(richChat).sort()).toEqual(listRequestFields('chat').sort());
    expect(validator.validate('chat', richChat)).toEqual([]);
  });

  it('accepts a completions body that sets every field of our document', () => {
    expect(Object.keys(richText).sort()).toEqual(listRequestFields('text').sort());
    expect(validator.validate('text', richText)).toEqual([]);
  });

  it('accepts a minimal Responses body', () => {
    expect(validator.validate('responses', minimalResponses)).toEqual([]);
    expect(validator.validate('responses', { model: 'm', input: [{ role: 'user', content: 'Hi' }] })).toEqual([]);
  });

  it('accepts a Responses body that sets every field of our document, with every input item kind the proxy translates', () => {
    expect(Object.keys(richResponses).sort()).toEqual(listRequestFields('responses').sort());
    expect(validator.validate('responses', richResponses)).toEqual([]);
  });

  it('accepts null for every optional Responses field', () => {
    const optional = listRequestFields('responses').filter((field) => field !== 'model');
    expect(validator.validate('responses', { model: 'm', ...Object.fromEntries(optional.map((field) => [field, null])) })).toEqual([]);
  });

  it.each([
    [
      'a hosted tool call item',
      { input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } }] },
    ],
    ['an MCP item', { input: [{ type: 'mcp_approval_response', approval_request_id: 'a', approve: true }] }],
    [
      'hosted tools',
      {
        tools: [
          { type: 'web_search' },
          { type: 'file_search', vector_store_ids: ['vs_1'] },
          { type: 'mcp', server_label: 's' },
          { type: 'code_interpreter', container: { type: 'auto' } },
        ],
      },
    ],
    ['a hosted tool choice', { tool_choice: { type: 'web_search_preview' } }],
    ['a namespaced function call', { input: [{ type: 'function_call', call_id: 'c', namespace: 'crm', name: 'find', arguments: '{}' }] }],
    ['a custom tool choice', { tool_choice: { type: 'custom', name: 'run_sql' } }],
    ['allowed tools', { tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'f' }] } }],
    ['a tool choice mode', { tool_choice: 'required' }],
    ['a conversation ID', { conversation: 'conv_1' }],
    ['json_object and text formats', { text: { format: { type: 'json_object' } } }],
  ])('Responses accepts %s (the proxy refuses what it cannot translate by name)', (_name, extra) => {
    expect(validator.validate('responses', responses(extra))).toEqual([]);
  });

  it('accepts a Responses body without input (a stored prompt, or a previous response)', () => {
    expect(validator.validate('responses', { model: 'm', prompt: { id: 'pmpt_1' } })).toEqual([]);
    expect(validator.validate('responses', { model: 'm', previous_response_id: 'resp_1' })).toEqual([]);
  });

  it.each(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive'])('Responses reasoning.effort accepts %p', (effort) => {
    expect(validator.validate('responses', responses({ reasoning: { effort } }))).toEqual([]);
  });

  it('accepts null for every optional field the specs make nullable', () => {
    const nullable = [
      'temperature',
      'top_p',
      'stop',
      'thinking',
      'reasoning_effort',
      'reasoning_history',
      'stream_options',
      'speculation',
      'prediction',
      'response_format',
      'images',
      'logprobs',
      'sampling_mask',
    ];
    expect(validator.validate('text', text(Object.fromEntries(nullable.map((field) => [field, null]))))).toEqual([]);
    const chatNullable = [
      'temperature',
      'stop',
      'thinking',
      'reasoning_effort',
      'stream_options',
      'speculation',
      'prediction',
      'verbosity',
      'moderation',
      'service_tier',
      'prompt_cache_retention',
    ];
    expect(validator.validate('chat', chat(Object.fromEntries(chatNullable.map((field) => [field, null]))))).toEqual([]);
  });

  it.each(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive', 1, 4096, true, false])(
    'chat reasoning_effort accepts %p',
    (effort) => {
      expect(validator.validate('chat', chat({ reasoning_effort: effort }))).toEqual([]);
    },
  );

  it.each(['none', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive', 512, true, false])(
    'completions reasoning_effort and thinking.effort accept %p',
    (effort) => {
      expect(validator.validate('text', text({ reasoning_effort: effort, thinking: { type: 'enabled', effort } }))).toEqual([]);
    },
  );

  it.each([
    ['a string', 'hi'],
    ['strings', ['a', 'b']],
    ['token ids', [1, 2]],
    ['token id lists', [[1], [2, 3]]],
  ])('completions prompt accepts %s', (_name, prompt) => {
    expect(validator.validate('text', text({ prompt }))).toEqual([]);
  });

  it.each([{ type: 'enabled' }, { budget_tokens: 1024 }, { type: 'disabled' }, { type: 'adaptive' }])('thinking accepts %p', (thinking) => {
    expect(validator.validate('text', text({ thinking }))).toEqual([]);
    expect(validator.validate('chat', chat({ thinking }))).toEqual([]);
  });

  it('accepts the other union forms', () => {
    expect(
      validator.validate(
        'text',
        text({ logprobs: true, stop: 'END', prediction: 'draft', speculation: [1, 2], images: ['data:image/png;base64,AA=='] }),
      ),
    ).toEqual([]);
    expect(
      validator.validate(
        'chat',
        chat({ stop: 'END', tool_choice: 'required', function_call: { name: 'f' }, response_format: { type: 'json_object' } }),
      ),
    ).toEqual([]);
  });
});

describe('invalid requests name the field', () => {
  it.each([
    // [endpoint, body, param, type]
    ['chat', { messages: minimalChat.messages }, 'model', 'missing'],
    ['chat', { model: 'm' }, 'messages', 'missing'],
    ['text', { model: 'm' }, 'prompt', 'missing'],
    ['chat', chat({ foo: 1 }), 'foo', 'extra_forbidden'],
    ['text', text({ messages: [] }), 'messages', 'extra_forbidden'],
    ['chat', chat({ temperature: 'hot' }), 'temperature', 'type_error'],
    ['chat', chat({ temperature: 2.5 }), 'temperature', 'range'],
    ['text', text({ temperature: -0.1 }), 'temperature', 'range'],
    ['text', text({ n: 129 }), 'n', 'range'],
    ['text', text({ top_k: 101 }), 'top_k', 'range'],
    ['chat', chat({ top_logprobs: 21 }), 'top_logprobs', 'range'],
    ['chat', chat({ n: 1.5 }), 'n', 'type_error'],
    ['chat', chat({ service_tier: 'gold' }), 'service_tier', 'enum'],
    ['text', text({ context_length_exceeded_behavior: 'drop' }), 'context_length_exceeded_behavior', 'enum'],
    ['chat', chat({ stream_options: { buffer_mode: 'some' } }), 'stream_options.buffer_mode', 'enum'],
    ['text', text({ stream_options: { buffer_tokens: -1 } }), 'stream_options.buffer_tokens', 'range'],
    ['chat', chat({ stream_options: { include_usage: true, flush: 1 } }), 'stream_options.flush', 'extra_forbidden'],
    ['chat', chat({ messages: [{ role: 'robot', content: 'x' }] }), 'messages[0].role', 'enum'],
    ['chat', chat({ messages: [{ content: 'x' }] }), 'messages[0].role', 'missing'],
    ['chat', chat({ messages: [{ role: 'user' }] }), 'messages[0].content', 'missing'],
    ['chat', chat({ messages: [{ role: 'user', content: 5 }] }), 'messages[0].content', 'type_error'],
    ['chat', chat({ messages: [{ role: 'user', content: [{ type: 'text', text: 1 }] }] }), 'messages[0].content[0].text', 'type_error'],
    [
      'chat',
      chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }),
      'messages[0].content[0].image_url.url',
      'missing',
    ],
    ['chat', chat({ messages: [{ role: 'assistant', reasoning_content: 3 }] }), 'messages[0].reasoning_content', 'type_error'],
    ['chat', chat({ messages: [] }), 'messages', 'too_short'],
    ['text', text({ stop: ['1', '2', '3', '4', '5'] }), 'stop', 'too_long'],
    ['chat', chat({ stop: ['1', '2', '3', '4', '5'] }), 'stop', 'too_long'],
    ['chat', chat({ reasoning_effort: 'extreme' }), 'reasoning_effort', 'enum'],
    ['chat', chat({ reasoning_effort: 0 }), 'reasoning_effort', 'range'],
    ['text', text({ reasoning_effort: [] }), 'reasoning_effort', 'type_error'],
    ['text', text({ thinking: { type: 'enabled', budget_tokens: 100 } }), 'thinking.budget_tokens', 'range'],
    ['text', text({ thinking: { type: 'enabled', effort: 'huge' } }), 'thinking.effort', 'enum'],
    ['text', text({ thinking: { type: 'disabled', budget_tokens: 2048 } }), 'thinking.budget_tokens', 'extra_forbidden'],
    ['text', text({ thinking: { type: 'sometimes' } }), 'thinking', 'enum'],
    ['chat', chat({ thinking: true }), 'thinking', 'type_error'],
    ['text', text({ prompt: [1, 'a'] }), 'prompt', 'type_error'],
    ['text', text({ logprobs: 'yes' }), 'logprobs', 'type_error'],
    ['text', text({ response_format: { type: 'xml' } }), 'response_format.type', 'enum'],
    ['text', text({ prediction: { content: [{ type: 'text', txt: 'x' }] } }), 'prediction.content[0].txt', 'extra_forbidden'],
    ['chat', chat({ tool_choice: 'sometimes' }), 'tool_choice', 'enum'],
    ['chat', chat({ tool_choice: { type: 'function' } }), 'tool_choice.function', 'missing'],
    ['chat', chat({ logit_bias: { '50256': 101 } }), 'logit_bias.50256', 'range'],
    ['chat', chat({ safety_identifier: 'x'.repeat(65) }), 'safety_identifier', 'too_long'],
    ['chat', chat({ response_format: { type: 'json_schema' } }), 'response_format.json_schema', 'missing'],
    ['responses', { input: 'Hi' }, 'model', 'missing'],
    ['responses', responses({ foo: 1 }), 'foo', 'extra_forbidden'],
    ['responses', responses({ messages: [] }), 'messages', 'extra_forbidden'],
    ['responses', responses({ temperature: 3 }), 'temperature', 'range'],
    ['responses', responses({ top_p: 1.5 }), 'top_p', 'range'],
    ['responses', responses({ top_logprobs: 21 }), 'top_logprobs', 'range'],
    ['responses', responses({ max_output_tokens: 0 }), 'max_output_tokens', 'range'],
    ['responses', responses({ service_tier: 'gold' }), 'service_tier', 'enum'],
    ['responses', responses({ truncation: 'sometimes' }), 'truncation', 'enum'],
    ['responses', responses({ include: ['everything'] }), 'include[0]', 'enum'],
    ['responses', responses({ reasoning: { effort: 'extreme' } }), 'reasoning.effort', 'enum'],
    ['responses', responses({ reasoning: { summary: 'long' } }), 'reasoning.summary', 'enum'],
    ['responses', responses({ reasoning: { effort: 'low', budget_tokens: 10 } }), 'reasoning.budget_tokens', 'extra_forbidden'],
    ['responses', responses({ text: { verbosity: 'loud' } }), 'text.verbosity', 'enum'],
    ['responses', responses({ text: { format: { type: 'xml' } } }), 'text.format.type', 'enum'],
    ['responses', responses({ text: { format: { type: 'json_schema', schema: {} } } }), 'text.format.name', 'missing'],
    ['responses', responses({ stream_options: { include_usage: true } }), 'stream_options.include_usage', 'extra_forbidden'],
    ['responses', responses({ input: 5 }), 'input', 'type_error'],
    ['responses', responses({ input: [{ role: 'robot', content: 'x' }] }), 'input[0].role', 'enum'],
    ['responses', responses({ input: [{ type: 'message', role: 'tool', content: 'x' }] }), 'input[0].role', 'enum'],
    ['responses', responses({ input: [{ role: 'assistant', tool_calls: [] }] }), 'input[0].content', 'missing'],
    ['responses', responses({ input: [{ role: 'user', content: 5 }] }), 'input[0].content', 'type_error'],
    ['responses', responses({ input: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }), 'input[0].content[0].type', 'enum'],
    ['responses', responses({ input: [{ role: 'user', content: [{ type: 'input_text' }] }] }), 'input[0].content[0].text', 'missing'],
    [
      'responses',
      responses({ input: [{ role: 'user', content: [{ type: 'input_image', detail: 'huge' }] }] }),
      'input[0].content[0].detail',
      'enum',
    ],
    [
      'responses',
      responses({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }] }),
      'input[0].arguments',
      'type_error',
    ],
    ['responses', responses({ input: [{ type: 'function_call_output', output: 'x' }] }), 'input[0].call_id', 'missing'],
    [
      'responses',
      responses({ input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'output_text', text: 'x' }] }] }),
      'input[0].output[0].type',
      'enum',
    ],
    [
      'responses',
      responses({ input: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary', text: 'x' }] }] }),
      'input[0].summary[0].type',
      'enum',
    ],
    ['responses', responses({ input: [{ type: 'custom_tool_call', call_id: 'c', name: 'f' }] }), 'input[0].input', 'missing'],
    ['responses', responses({ input: [{ type: 'teleport' }] }), 'input[0]', 'enum'],
    ['responses', responses({ tools: [{ type: 'function' }] }), 'tools[0].name', 'missing'],
    ['responses', responses({ tools: [{ type: 'function', function: { name: 'f' } }] }), 'tools[0].name', 'missing'],
    [
      'responses',
      responses({ tools: [{ type: 'custom', name: 'f', format: { type: 'grammar', syntax: 'gbnf', definition: 'x' } }] }),
      'tools[0].format.syntax',
      'enum',
    ],
    ['responses', responses({ tools: [{ type: 'teleport' }] }), 'tools[0].type', 'enum'],
    ['responses', responses({ tool_choice: 'sometimes' }), 'tool_choice', 'enum'],
    ['responses', responses({ tool_choice: { type: 'function' } }), 'tool_choice.name', 'missing'],
    ['responses', responses({ tool_choice: { type: 'allowed_tools', mode: 'any', tools: [] } }), 'tool_choice.mode', 'enum'],
    ['responses', responses({ context_management: [] }), 'context_management', 'too_short'],
    ['responses', responses({ safety_identifier: 'x'.repeat(65) }), 'safety_identifier', 'too_long'],
  ] as const)('%s %j -> %s (%s)', (endpoint, body, param, type) => {
    const issues = validator.validate(endpoint, body);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ param, type });
    expect(issues[0].message).toContain(param);
  });

  it('gives FastAPI-style locations and readable messages', () => {
    expect(
      validator.validate(
        'chat',
        chat({
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'bot', content: 'x' },
          ],
        }),
      ),
    ).toEqual([
      {
        param: 'messages[1].role',
        loc: ['body', 'messages', 1, 'role'],
        type: 'enum',
        message: "messages[1].role: must be one of: 'developer', 'system', 'user', 'assistant', 'tool', 'function'; got 'bot'",
      },
    ]);
    expect(validator.validate('chat', { messages: minimalChat.messages })[0].message).toBe("'model' is a required property");
    expect(validator.validate('chat', chat({ temperature: 3 }))[0].message).toBe('temperature: must be <= 2');
    expect(validator.validate('chat', chat({ foo: 1 }))[0].message).toBe('Unrecognized request argument supplied: foo');
    expect(validator.validate('text', text({ temperature: 'hot' }))[0].message).toBe("temperature: must be a number or null; got 'hot'");
  });

  it('names the field of a Responses input item in readable messages', () => {
    expect(
      validator.validate(
        'responses',
        responses({
          input: [
            { role: 'user', content: 'hi' },
            { role: 'robot', content: 'x' },
          ],
        }),
      ),
    ).toEqual([
      {
        param: 'input[1].role',
        loc: ['body', 'input', 1, 'role'],
        type: 'enum',
        message: "input[1].role: must be one of: 'user', 'assistant', 'system', 'developer'; got 'robot'",
      },
    ]);
    expect(validator.validate('responses', responses({ temperature: 3 }))[0].message).toBe('temperature: must be <= 2');
    expect(validator.validate('responses', responses({ foo: 1 }))[0].message).toBe('Unrecognized request argument supplied: foo');
    expect(
      validator.validate('responses', responses({ input: [{ type: 'function_call', call_id: 5, name: 'f', arguments: '{}' }] }))[0].message,
    ).toBe('input[0].call_id: must be a string; got 5');
    expect(
      validator.validate('responses', responses({ input: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }))[0].message,
    ).toBe("input[0].content[0].type: must be one of: 'input_text', 'input_image', 'input_file', 'output_text', 'refusal'; got 'text'");
  });

  it('reports one issue for a union, listing what it accepts', () => {
    expect(validator.validate('chat', chat({ reasoning_effort: 'extreme' }))[0].message).toBe(
      "reasoning_effort: must be one of: 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive', an integer, a boolean, null; got 'extreme'",
    );
    expect(validator.validate('text', text({ prompt: { text: 'x' } }))[0].message).toBe(
      'prompt: must be one of: a string, an array of strings, an array of integers, an array of integer arrays; got an object',
    );
    expect(validator.validate('text', text({ thinking: { type: 'sometimes' } }))[0].message).toBe(
      "thinking: must be one of: an object with type 'enabled', an object with type 'disabled', an object with type 'adaptive', null; got an object with type 'sometimes'",
    );
    expect(validator.validate('text', text({ thinking: { effort: 'huge' } }))[0].message).toBe(
      "thinking.effort: must be one of: 'low', 'medium', 'high', 'xhigh', 'max', 'none', 'adaptive', an integer, a boolean, null; got 'huge'",
    );
  });

  it('reports every problem at once', () => {
    const issues = validator.validate('text', { prompt: 'x', foo: 1, bar: 2, top_p: 2 });
    expect(issues.map((issue) => issue.param)).toEqual(['model', 'foo', 'bar', 'top_p']);
  });

  it.each([null, undefined, [], 'text', 3])('rejects a body that is not an object (%p)', (body) => {
    expect(validator.validate('chat', body)).toEqual([
      expect.objectContaining({ param: '', loc: ['body'], message: 'The request body must be a JSON object.' }),
    ]);
  });
});

describe('start-up', () => {
  it('reads documents from openapiDir and fails start-up on an invalid document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      cpSync(defaultOpenapiDir(), dir, { recursive: true });
      const own = await createRequestValidator({ openapiDir: dir });
      expect(own.validate('text', minimalText)).toEqual([]);
      const file = join(dir, 'fireworks-completions.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('openapi: 3.0.3', 'openapi: 3.0.3\nbogus: true'));
      await expect(createRequestValidator({ openapiDir: dir })).rejects.toThrow(/not valid OpenAPI/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Fireworks chat extensions on the chat endpoint', () => {
  test.each([
    ['integer logprobs', { logprobs: 3 }],
    ["tool_choice 'any'", { tool_choice: 'any', tools: [{ type: 'function', function: { name: 'f' } }] }],
    ['grammar response_format', { response_format: { type: 'grammar', grammar: 'root ::= "yes"' } }],
    ['json_object with a schema', { response_format: { type: 'json_object', schema: { type: 'object' } } }],
  ])('%s is accepted', async (_name, extra) => {
    const validator = await createRequestValidator();
    expect(validator.validate('chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra })).toEqual([]);
  });
});
