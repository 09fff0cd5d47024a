/**
 * The Anthropic Messages document (config/openapi/anthropic-messages.yaml): Claude Code's real
 * requests validate, every field and block kind of our document is accepted, what the proxy
 * must refuse by name gets through to it, and mistakes name the field. Also the second
 * operation of the document, POST /v1/messages/count_tokens.
 */
import { readFileSync } from 'node:fs';
import type { RequestValidator, ValidationIssue } from '../../../src/validation/index.js';
import { listRequestFields } from '../../helpers/list-request-fields.js';
import { describeWithShared, sharedPath } from '../../helpers/shared.js';
import { validation } from './load-validation.js';

const { compileBodyValidator } = await import('../../../src/validation/compile-body-validator.js');
const { toValidationIssues } = await import('../../../src/validation/to-validation-issues.js');
const { createRequestValidator, defaultOpenapiDir } = validation;

let validator: RequestValidator;
let countTokens: (body: unknown) => ValidationIssue[];

beforeAll(async () => {
  validator = await createRequestValidator();
  const validate = await compileBodyValidator('messages', defaultOpenapiDir(), 'countMessageTokens');
  countTokens = (body) => (validate({ requestBody: body }) ? [] : toValidationIssues(validate.errors ?? [], body));
});

const minimalMessages = { model: 'claude-sonnet-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };
const messages = (extra: Record<string, unknown>) => ({ ...minimalMessages, ...extra });
const userBlocks = (...content: unknown[]) => messages({ messages: [{ role: 'user', content }] });
const tool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

/** A body that sets every field of our document, with a block of each kind the proxy translates. */
const richMessages: Record<string, unknown> = {
  model: 'claude-opus-5',
  max_tokens: 4096,
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: "What's in these, and what's the weather?", cache_control: { type: 'ephemeral' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' }, transformations: { oversized_image: 'error' } },
        { type: 'image', source: { type: 'file', file_id: 'file_1' }, cache_control: null },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
          title: 'Report',
          context: 'Q3',
          citations: { enabled: true },
        },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain text.' }, title: null, context: null },
        {
          type: 'document',
          source: {
            type: 'content',
            content: [
              { type: 'text', text: 'A chunk.' },
              { type: 'image', source: { type: 'file', file_id: 'f' } },
            ],
          },
        },
        { type: 'document', source: { type: 'content', content: 'One chunk.' }, citations: null },
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        { type: 'document', source: { type: 'file', file_id: 'file_2' } },
        {
          type: 'search_result',
          source: 'https://example.com',
          title: 'Example',
          content: [{ type: 'text', text: 'Result.' }],
          citations: { enabled: false },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants the weather.', signature: 'sig' },
        { type: 'redacted_thinking', data: 'opaque' },
        {
          type: 'text',
          text: 'It is in the report.',
          citations: [
            {
              type: 'char_location',
              cited_text: 'Q3',
              document_index: 0,
              document_title: 'Report',
              start_char_index: 0,
              end_char_index: 2,
            },
          ],
        },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C', cache_control: { type: 'ephemeral' } },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_2',
          is_error: true,
          content: [
            { type: 'text', text: 'Failed.' },
            { type: 'image', source: { type: 'url', url: 'https://example.com/err.png' } },
            { type: 'search_result', source: 's', title: 't', content: [{ type: 'text', text: 'x' }] },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'log' } },
          ],
        },
      ],
    },
    { role: 'assistant', content: 'The weather in Paris' },
  ],
  cache_control: { type: 'ephemeral' },
  container: { id: 'container_1', skills: [{ skill_id: 'pptx', type: 'anthropic', version: 'latest' }] },
  diagnostics: { previous_message_id: 'msg_1' },
  inference_geo: 'us',
  metadata: { user_id: 'user-1' },
  output_config: {
    effort: 'xhigh',
    format: { type: 'json_schema', schema: { type: 'object' } },
    task_budget: { type: 'tokens', total: 100000, remaining: 50000 },
  },
  service_tier: 'standard_only',
  speed: 'fast',
  stop_sequences: ['\n\nHuman:', 'END'],
  stream: true,
  system: [{ type: 'text', text: 'You are a helpful assistant.', cache_control: { type: 'ephemeral' } }],
  temperature: 1,
  top_p: 0.99,
  top_k: 40,
  thinking: { type: 'enabled', budget_tokens: 2048, display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
  tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
  tools: [
    tool,
    {
      type: 'custom',
      name: 'run_sql',
      description: 'Runs SQL',
      input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false },
      cache_control: { type: 'ephemeral' },
      strict: true,
      defer_loading: false,
      allowed_callers: ['direct', 'code_execution_20260120'],
      eager_input_streaming: null,
      input_examples: [{ query: 'SELECT 1' }],
    },
    { type: null, name: 'echo', input_schema: { type: 'object' } },
  ],
  context_management: {
    edits: [
      { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100000 }, keep: { type: 'tool_uses', value: 3 } },
      { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
      { type: 'compact_20260112', instructions: 'Keep the file names.', pause_after_compaction: false, trigger: null },
    ],
  },
  mcp_servers: [
    {
      type: 'url',
      name: 'docs',
      url: 'https://mcp.example.com',
      authorization_token: null,
      tool_configuration: { allowed_tools: ['search'], enabled: true },
    },
  ],
  output_format: { type: 'json_schema', schema: { type: 'object', properties: {} } },
};

describeWithShared(sharedPath('captures', 'claude-code'))("Claude Code's requests", () => {
  const capture = (file: string) =>
    (JSON.parse(readFileSync(sharedPath('captures', 'claude-code', file), 'utf8')) as { body: Record<string, unknown> }).body;

  it.each(['tool-loop-1-request.json', 'tool-loop-2-tool-result.json'])('%s validates', (file) => {
    const body = capture(file);
    expect(body).toEqual(expect.objectContaining({ context_management: expect.anything(), thinking: expect.anything() }));
    expect(validator.validate('messages', body)).toEqual([]);
  });

  it('the tool loop has the blocks it was recorded for', () => {
    const body = capture('tool-loop-2-tool-result.json');
    const blocks = (body.messages as { content: unknown }[]).flatMap((message) => (Array.isArray(message.content) ? message.content : []));
    expect(blocks.map((block) => (block as { type: string }).type)).toEqual(expect.arrayContaining(['tool_use', 'tool_result']));
  });

  it.each(['tool-loop-1-request.json', 'tool-loop-2-tool-result.json'])(
    '%s, less the create-only fields, is a count_tokens body',
    (file) => {
      const { max_tokens, stream, metadata, ...rest } = capture(file);
      expect([max_tokens, stream, metadata]).not.toContain(undefined);
      expect(countTokens(rest)).toEqual([]);
    },
  );
});

describe('valid Messages requests', () => {
  it('accepts a minimal body', () => {
    expect(validator.validate('messages', minimalMessages)).toEqual([]);
  });

  it('accepts a body that sets every field of our document, with every block kind the proxy translates', () => {
    expect(Object.keys(richMessages).sort()).toEqual(listRequestFields('messages').sort());
    expect(validator.validate('messages', richMessages)).toEqual([]);
  });

  it('accepts null for every field the SDK makes nullable', () => {
    const nullable = ['cache_control', 'container', 'diagnostics', 'inference_geo', 'speed', 'context_management', 'output_format'];
    expect(validator.validate('messages', messages(Object.fromEntries(nullable.map((field) => [field, null]))))).toEqual([]);
    expect(validator.validate('messages', messages({ output_config: { effort: null, format: null, task_budget: null } }))).toEqual([]);
    expect(validator.validate('messages', messages({ metadata: { user_id: null } }))).toEqual([]);
  });

  it.each([
    ['a string system prompt', { system: 'Be brief.' }],
    ['a container ID', { container: 'container_1' }],
    ['max_tokens 0 (warms the prompt cache)', { max_tokens: 0 }],
    [
      'a system message with string content',
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
      },
    ],
    [
      'a beta system message',
      { messages: [{ role: 'system', content: 'x', clear_at: 'next_user_message', output_config: { effort: 'low' } }] },
    ],
    ['server tool blocks', userBlocks({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } })],
    ['a web search result', userBlocks({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] })],
    ['a container upload', userBlocks({ type: 'container_upload', file_id: 'file_1' })],
    ['beta MCP blocks', userBlocks({ type: 'mcp_tool_use', id: 'm', name: 'n', server_name: 's', input: {} })],
    [
      'a tool_reference in a tool result',
      userBlocks({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_reference', tool_name: 'x' }] }),
    ],
    [
      'Anthropic-defined tools',
      {
        tools: [
          { type: 'bash_20250124', name: 'bash' },
          { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 1000 },
          { type: 'web_search_20260318', name: 'web_search', max_uses: 3 },
          { type: 'web_fetch_20260318', name: 'web_fetch' },
          { type: 'code_execution_20260521', name: 'code_execution' },
          { type: 'memory_20250818', name: 'memory' },
          { type: 'computer_20251124', name: 'computer', display_width_px: 1024, display_height_px: 768 },
          { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
          { type: 'browser_toolset_20260801' },
          { type: 'mcp_toolset', mcp_server_name: 'docs' },
        ],
      },
    ],
    ['thinking disabled', { thinking: { type: 'disabled' } }],
    ['thinking between tools', { thinking: { type: 'between_tools' } }],
    ['adaptive thinking, omitted', { thinking: { type: 'adaptive', display: 'omitted' } }],
    ['adaptive thinking, no display', { thinking: { type: 'adaptive' } }],
    ['clear thinking of all turns', { context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] } }],
    ['clear tool inputs by name', { context_management: { edits: [{ type: 'clear_tool_uses_20250919', clear_tool_inputs: ['Bash'] }] } }],
  ])('accepts %s (the proxy refuses what it cannot translate by name)', (_name, extra) => {
    expect(validator.validate('messages', messages(extra))).toEqual([]);
  });

  it.each([{ type: 'auto' }, { type: 'auto', disable_parallel_tool_use: true }, { type: 'any' }, { type: 'none' }])(
    'accepts tool_choice %p',
    (toolChoice) => {
      expect(validator.validate('messages', messages({ tools: [tool], tool_choice: toolChoice }))).toEqual([]);
    },
  );

  it.each(['low', 'medium', 'high', 'xhigh', 'max'])('accepts output_config.effort %p', (effort) => {
    expect(validator.validate('messages', messages({ output_config: { effort } }))).toEqual([]);
  });
});

describe('invalid Messages requests name the field', () => {
  it.each([
    // [body, param, type]
    [{ model: 'm', messages: minimalMessages.messages }, 'max_tokens', 'missing'],
    [{ max_tokens: 1, messages: minimalMessages.messages }, 'model', 'missing'],
    [{ model: 'm', max_tokens: 1 }, 'messages', 'missing'],
    [messages({ foo: 1 }), 'foo', 'extra_forbidden'],
    [messages({ user_profile_id: 'up_1' }), 'user_profile_id', 'extra_forbidden'],
    [messages({ betas: ['x'] }), 'betas', 'extra_forbidden'],
    [messages({ max_tokens: -1 }), 'max_tokens', 'range'],
    [messages({ max_tokens: 1.5 }), 'max_tokens', 'type_error'],
    [messages({ messages: [] }), 'messages', 'too_short'],
    [messages({ temperature: 1.5 }), 'temperature', 'range'],
    [messages({ top_p: -1 }), 'top_p', 'range'],
    [messages({ service_tier: 'priority' }), 'service_tier', 'enum'],
    [messages({ speed: 'slow' }), 'speed', 'enum'],
    [messages({ stop_sequences: 'END' }), 'stop_sequences', 'type_error'],
    [messages({ metadata: { user_id: 'u', session: 's' } }), 'metadata.session', 'extra_forbidden'],
    [messages({ cache_control: { type: 'ephemeral', ttl: '10m' } }), 'cache_control.ttl', 'enum'],
    [messages({ messages: [{ role: 'robot', content: 'x' }] }), 'messages[0].role', 'enum'],
    [messages({ messages: [{ content: 'x' }] }), 'messages[0].role', 'missing'],
    [messages({ messages: [{ role: 'user' }] }), 'messages[0].content', 'missing'],
    [messages({ messages: [{ role: 'user', content: 'x', name: 'n' }] }), 'messages[0].name', 'extra_forbidden'],
    [messages({ messages: [{ role: 'user', content: 5 }] }), 'messages[0].content', 'type_error'],
    [userBlocks({ type: 'input_text', text: 'x' }), 'messages[0].content[0].type', 'enum'],
    [userBlocks({ text: 'x' }), 'messages[0].content[0].type', 'missing'],
    [userBlocks({ type: 'text' }), 'messages[0].content[0].text', 'missing'],
    [userBlocks({ type: 'text', text: 'x', cache_control: { type: 'persistent' } }), 'messages[0].content[0].cache_control.type', 'enum'],
    [
      userBlocks({ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'x' } }),
      'messages[0].content[0].source.media_type',
      'enum',
    ],
    [userBlocks({ type: 'image', source: { type: 'url' } }), 'messages[0].content[0].source.url', 'missing'],
    [
      userBlocks({ type: 'document', source: { type: 'base64', media_type: 'image/png', data: 'x' } }),
      'messages[0].content[0].source.media_type',
      'enum',
    ],
    [userBlocks({ type: 'document', source: { type: 'path', path: '/a.pdf' } }), 'messages[0].content[0].source.type', 'enum'],
    [userBlocks({ type: 'thinking', thinking: 'x' }), 'messages[0].content[0].signature', 'missing'],
    [userBlocks({ type: 'tool_use', id: 't', name: 'f', input: '{}' }), 'messages[0].content[0].input', 'type_error'],
    [userBlocks({ type: 'tool_result', content: 'x' }), 'messages[0].content[0].tool_use_id', 'missing'],
    [
      userBlocks({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'tool_use' }] }),
      'messages[0].content[0].content[0].type',
      'enum',
    ],
    [messages({ messages: [{ role: 'system', content: [{ type: 'image' }] }] }), 'messages[0].content[0].type', 'enum'],
    [messages({ system: [{ type: 'image', source: {} }] }), 'system[0].type', 'enum'],
    [messages({ system: 5 }), 'system', 'type_error'],
    [
      userBlocks({ type: 'search_result', source: 's', title: 't', content: [{ type: 'image' }] }),
      'messages[0].content[0].content[0].type',
      'enum',
    ],
    [messages({ tools: [{ name: 'f' }] }), 'tools[0].input_schema', 'missing'],
    [messages({ tools: [{ input_schema: { type: 'object' } }] }), 'tools[0].name', 'missing'],
    [messages({ tools: [{ type: 'custom', name: 'f' }] }), 'tools[0].input_schema', 'missing'],
    [messages({ tools: [{ ...tool, parameters: {} }] }), 'tools[0].parameters', 'extra_forbidden'],
    [messages({ tools: [{ ...tool, type: 'function' }] }), 'tools[0].type', 'enum'],
    [messages({ tools: [{ ...tool, input_schema: { type: 'array' } }] }), 'tools[0].input_schema.type', 'enum'],
    [messages({ tool_choice: { type: 'required' } }), 'tool_choice.type', 'enum'],
    [messages({ tool_choice: { type: 'tool' } }), 'tool_choice.name', 'missing'],
    [
      messages({ tool_choice: { type: 'none', disable_parallel_tool_use: true } }),
      'tool_choice.disable_parallel_tool_use',
      'extra_forbidden',
    ],
    [messages({ tool_choice: 'auto' }), 'tool_choice', 'type_error'],
    [messages({ thinking: { type: 'enabled' } }), 'thinking.budget_tokens', 'missing'],
    [messages({ thinking: { type: 'enabled', budget_tokens: 512 } }), 'thinking.budget_tokens', 'range'],
    [messages({ thinking: { type: 'adaptive', display: 'full' } }), 'thinking.display', 'enum'],
    [messages({ thinking: { type: 'adaptive', budget_tokens: 2048 } }), 'thinking.budget_tokens', 'extra_forbidden'],
    [messages({ thinking: { type: 'sometimes' } }), 'thinking.type', 'enum'],
    [messages({ output_config: { effort: 'extreme' } }), 'output_config.effort', 'enum'],
    [messages({ output_config: { format: { type: 'json_object', schema: {} } } }), 'output_config.format.type', 'enum'],
    [messages({ output_config: { format: { type: 'json_schema' } } }), 'output_config.format.schema', 'missing'],
    [messages({ output_format: { type: 'json_schema', schema: {}, name: 'x' } }), 'output_format.name', 'extra_forbidden'],
    [messages({ context_management: { edits: [{ type: 'clear_everything' }] } }), 'context_management.edits[0].type', 'enum'],
    [messages({ mcp_servers: [{ type: 'url', name: 'docs' }] }), 'mcp_servers[0].url', 'missing'],
    [messages({ container: { skills: [{ skill_id: 's', type: 'builtin' }] } }), 'container.skills[0].type', 'enum'],
  ] as const)('%j -> %s (%s)', (body, param, type) => {
    const issues = validator.validate('messages', body);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ param, type });
    expect(issues[0].message).toContain(param);
  });

  it('gives readable messages', () => {
    expect(validator.validate('messages', messages({ foo: 1 }))[0].message).toBe('Unrecognized request argument supplied: foo');
    expect(validator.validate('messages', { model: 'm', messages: minimalMessages.messages })[0].message).toBe(
      "'max_tokens' is a required property",
    );
    expect(validator.validate('messages', messages({ messages: [{ role: 'robot', content: 'x' }] }))).toEqual([
      {
        param: 'messages[0].role',
        loc: ['body', 'messages', 0, 'role'],
        type: 'enum',
        message: "messages[0].role: must be one of: 'user', 'assistant', 'system'; got 'robot'",
      },
    ]);
    expect(validator.validate('messages', userBlocks({ type: 'input_text', text: 'x' }))[0].message).toBe(
      "messages[0].content[0].type: must be one of: 'text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', " +
        "'tool_use', 'tool_result', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result', " +
        "'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'container_upload', " +
        "'advisor_tool_result', 'mcp_tool_use', 'mcp_tool_result', 'mcp_tool_listing', 'compaction', 'tool_addition', 'tool_removal', " +
        "'fallback'; got 'input_text'",
    );
    expect(validator.validate('messages', messages({ tools: [{ name: 'f' }] }))[0].message).toBe(
      "'tools[0].input_schema' is a required property",
    );
  });

  it('reports every problem at once', () => {
    const issues = validator.validate('messages', { model: 'm', messages: [], foo: 1, temperature: 2 });
    expect(issues.map((issue) => issue.param)).toEqual(['max_tokens', 'foo', 'messages', 'temperature']);
  });
});

describe('count_tokens requests', () => {
  it('accepts a minimal body, without max_tokens', () => {
    expect(countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })).toEqual([]);
  });

  it('accepts the fields it shares with create', () => {
    const { model, messages: turns, cache_control, output_config, speed, system, thinking, tool_choice, tools } = richMessages;
    const { context_management, mcp_servers, output_format } = richMessages;
    const body = { model, messages: turns, cache_control, output_config, speed, system, thinking, tool_choice, tools };
    expect(countTokens({ ...body, context_management, mcp_servers, output_format })).toEqual([]);
  });

  it.each([
    'max_tokens',
    'stream',
    'stop_sequences',
    'temperature',
    'top_p',
    'top_k',
    'metadata',
    'service_tier',
    'container',
    'diagnostics',
    'inference_geo',
  ])('refuses the create-only field %s by name', (field) => {
    const issues = countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], [field]: richMessages[field] });
    expect(issues).toEqual([expect.objectContaining({ param: field, type: 'extra_forbidden' })]);
  });

  it('names a missing model and a bad block', () => {
    expect(countTokens({ messages: [{ role: 'user', content: 'Hi' }] })).toEqual([
      expect.objectContaining({ param: 'model', type: 'missing' }),
    ]);
    expect(countTokens({ model: 'm', messages: [{ role: 'user', content: [{ type: 'x' }] }] })).toEqual([
      expect.objectContaining({ param: 'messages[0].content[0].type', type: 'enum' }),
    ]);
  });
});
