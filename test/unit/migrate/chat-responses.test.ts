/**
 * Chat Completions <-> Responses (src/commands/migrate/chat-responses.ts): what each
 * field becomes, what is lost, and the round trips, checked through the real
 * dialects (our OpenAPI documents, then each dialect's parseRequest).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { openaiChatDialect } from '../../../src/dialects/openai-chat/index.js';
import { openaiResponsesDialect } from '../../../src/dialects/openai-responses/index.js';
import type { Dialect } from '../../../src/dialects/dialect.js';
import { chatToResponses, migrationVerdict, responsesToChat, type Migration } from '../../../src/commands/migrate/chat-responses.js';
import type { NeutralRequest } from '../../../src/model/request.js';
import { parseCallerRequest } from '../../../src/pipeline/request/parse-caller-request.js';
import { createRequestValidator, type RequestValidator } from '../../../src/validation/create-validator.js';

type Body = Record<string, unknown>;

let validator: RequestValidator;
beforeAll(async () => {
  validator = await createRequestValidator();
});

/** The neutral request a body parses to, without what only says where a value came from. */
function neutral(dialect: Dialect, body: Body): Omit<NeutralRequest, 'origins' | 'echoedParams'> {
  const { origins: _origins, echoedParams: _echoed, ...rest } = parseCallerRequest(validator, dialect, body);
  // Where a message's reasoning came from (for warnings) is an origin too.
  rest.messages = rest.messages?.map(({ reasoningOrigin: _reasoningOrigin, ...message }) => message);
  return rest;
}

const chat = (body: Body) => neutral(openaiChatDialect, body);
const responses = (body: Body) => neutral(openaiResponsesDialect, body);

/** `field action` for each change, as a reader scans the list. */
const summary = ({ changes }: Migration) =>
  changes.map((change) => `${change.field}${change.to ? ` -> ${change.to}` : ''} ${change.action}${change.lossy ? ' (lossy)' : ''}`);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('chatToResponses', () => {
  test('a tool conversation: system message as instructions, calls and outputs as items, the tools flattened', () => {
    const body = deepFreeze({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You answer weather questions.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'Call the tool.',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18C, sunny' },
      ],
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 256,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'low',
      logprobs: true,
      top_logprobs: 2,
      verbosity: 'low',
      stream: true,
    });
    const migration = chatToResponses(body);
    expect(migration.body).toEqual({
      model: 'gpt-4o',
      instructions: 'You answer weather questions.',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'reasoning', id: 'rs_2', summary: [{ type: 'summary_text', text: 'Call the tool.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C, sunny' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather', parameters: weatherTool.function.parameters }],
      tool_choice: { type: 'function', name: 'get_weather' },
      max_output_tokens: 256,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      reasoning: { effort: 'low' },
      include: ['message.output_text.logprobs'],
      top_logprobs: 2,
      stream: true,
    });
    expect(summary(migration)).toEqual([
      'messages -> input converted',
      'messages[0] -> instructions converted',
      'messages[2].reasoning_content -> input[1] converted',
      'messages[2].tool_calls -> input[2] converted',
      'messages[3] -> input[3] converted',
      'tools converted',
      'tool_choice converted',
      'max_completion_tokens -> max_output_tokens renamed',
      'response_format -> text.format converted',
      'reasoning_effort -> reasoning.effort renamed',
      'logprobs -> include converted',
      'verbosity -> text.verbosity renamed',
      'stream_options.include_usage converted',
    ]);
    expect(migrationVerdict(migration.changes)).toBe('lossless');
    expect(() => responses(migration.body)).not.toThrow();
  });

  test('what the Responses API has no place for is dropped, and the move is lossy', () => {
    const migration = chatToResponses({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi', name: 'alice' }],
      n: 2,
      stop: ['END'],
      logit_bias: { 50256: -100 },
      presence_penalty: 0.5,
      frequency_penalty: 0.5,
      seed: 7,
      modalities: ['text'],
      top_k: 40,
      min_p: 0.05,
      prediction: { type: 'content', content: 'Hello' },
      store: true,
    });
    expect(migration.body).toEqual({ model: 'm', input: [{ role: 'user', content: 'Hi' }], store: true });
    expect(summary(migration)).toEqual([
      'messages[0].name dropped (lossy)',
      'n dropped (lossy)',
      'stop dropped (lossy)',
      'logit_bias dropped (lossy)',
      'presence_penalty dropped (lossy)',
      'frequency_penalty dropped (lossy)',
      'seed dropped (lossy)',
      'top_k dropped (lossy)',
      'min_p dropped (lossy)',
      'prediction dropped (lossy)',
      'store converted (lossy)',
      'messages -> input converted',
      'modalities dropped',
    ]);
    expect(migration.changes.find((change) => change.field === 'top_k')?.reason).toBe(
      'top-k sampling: a Fireworks extension of chat; the Responses API has none',
    );
    expect(migrationVerdict(migration.changes)).toBe('lossy');
  });

  test('approximations: a thinking budget as the nearest effort, max_tokens below the Responses minimum raised', () => {
    const migration = chatToResponses({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 3000, max_tokens: 5 });
    expect(migration.body).toMatchObject({ reasoning: { effort: 'medium' }, max_output_tokens: 16 });
    expect(summary(migration)).toEqual([
      'reasoning_effort -> reasoning.effort converted (lossy)',
      'max_tokens -> max_output_tokens converted (lossy)',
      'messages -> input converted',
    ]);
  });

  test('content parts: text, image and file as input parts, audio and video dropped, an assistant answer as output_text', () => {
    const migration = chatToResponses({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Sure?' }] },
      ],
    });
    expect(migration.body.input).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is this?' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
        ],
      },
      { role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
      { role: 'user', content: [{ type: 'input_text', text: 'Sure?' }] },
    ]);
    // The same change at several places is listed once.
    expect(summary(migration)).toEqual([
      'messages[0].content[3] dropped (lossy)',
      'messages -> input converted',
      'messages[*].content[0] converted',
      'messages[0].content[1] converted',
      'messages[0].content[2] converted',
      'messages[1].content[0] converted',
    ]);
    expect(() => responses(migration.body)).not.toThrow();
  });

  test('the input is not modified', () => {
    const body = deepFreeze({
      model: 'm',
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      tools: [weatherTool],
      response_format: { type: 'json_object' },
    });
    expect(() => chatToResponses(body)).not.toThrow();
  });
});

describe('responsesToChat', () => {
  test('items as messages, grouped as the Responses dialect reads them; stateful fields dropped', () => {
    const body = deepFreeze({
      model: 'o4-mini',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris and Rome?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Two cities.' }], encrypted_content: 'gAAA' },
        { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call', id: 'fc_2', call_id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}', status: 'completed' },
        { type: 'function_call_output', call_id: 'c1', output: '18C' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: '21C' }] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: true }, { type: 'web_search' }],
      tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] },
      text: { format: { type: 'json_object' } },
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      truncation: 'auto',
      previous_response_id: 'resp_1',
      store: false,
      stream: true,
    });
    const migration = responsesToChat(body);
    expect(migration.body).toEqual({
      model: 'o4-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'Two cities.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '18C' },
        { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: '21C' }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' }, strict: true } }],
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
      },
      response_format: { type: 'json_object' },
      reasoning_effort: 'high',
      context_length_exceeded_behavior: 'truncate',
      store: false,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(summary(migration).filter((line) => line.includes('dropped'))).toEqual([
      'input[1].encrypted_content dropped (lossy)',
      'input[6] dropped (lossy)',
      'tools[1] dropped (lossy)',
      'reasoning.summary dropped (lossy)',
      'include[0] dropped (lossy)',
      'previous_response_id dropped (lossy)',
      'input[*].id dropped',
      'input[*].status dropped',
    ]);
    expect(summary(migration)).toContain('input[1] -> messages[2].reasoning_content converted');
    expect(summary(migration)).toContain('input[*] -> messages[2].tool_calls converted');
    expect(migrationVerdict(migration.changes)).toBe('lossy');
    expect(() => chat(migration.body)).not.toThrow();
  });

  test('a plain request: instructions and text input as two messages, lossless', () => {
    const migration = responsesToChat({ model: 'm', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 64, top_logprobs: 3 });
    expect(migration.body).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_completion_tokens: 64,
      logprobs: true,
      top_logprobs: 3,
    });
    expect(summary(migration)).toEqual([
      'instructions -> messages[0] converted',
      'input -> messages converted',
      'max_output_tokens -> max_completion_tokens renamed',
      'top_logprobs -> logprobs converted',
    ]);
    expect(migrationVerdict(migration.changes)).toBe('lossless');
    expect(chat(migration.body)).toEqual(
      responses({ model: 'm', instructions: 'Be brief.', input: 'Hi', max_output_tokens: 64, top_logprobs: 3 }),
    );
  });
});

// ------------------------------------------------------------------------------------------
// Round trips: chat bodies that use only fields with a counterpart
// ------------------------------------------------------------------------------------------

const text = fc.string({ minLength: 1, maxLength: 12 });
const name = fc.stringMatching(/^[a-z][a-z_]{0,8}$/);
const id = fc.stringMatching(/^call_[a-z0-9]{1,6}$/);

const userPart = fc.oneof(
  text.map((value): Body => ({ type: 'text', text: value })),
  fc
    .record(
      {
        url: fc.constantFrom('https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo='),
        detail: fc.constantFrom('low', 'high', 'auto'),
      },
      { requiredKeys: ['url'] },
    )
    .map((image) => ({ type: 'image_url', image_url: image })),
  fc.constant({ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } }),
);
const textPart = text.map((value) => ({ type: 'text', text: value }));
const userMessage = fc.oneof(
  fc.record({ role: fc.constant('user'), content: fc.oneof(text, fc.array(userPart, { minLength: 1, maxLength: 3 })) }),
  fc.record({ role: fc.constantFrom('developer', 'system'), content: fc.oneof(text, fc.array(textPart, { minLength: 1, maxLength: 2 })) }),
);
const toolCall = fc.record({
  id,
  type: fc.constant('function'),
  function: fc.record({ name, arguments: fc.constantFrom('{}', '{"city":"Paris"}') }),
});

/** An assistant turn (text, or calls and their outputs), never right after another assistant turn. */
const assistantTurn = (withParts: boolean) =>
  fc
    .record({
      content: fc.option(withParts ? fc.oneof(text, fc.array(textPart, { minLength: 1, maxLength: 2 })) : text, { nil: null }),
      reasoning: fc.option(text, { nil: undefined }),
      calls: fc.uniqueArray(toolCall, { maxLength: 2, selector: (call) => call.id }),
      answer: fc.option(text, { nil: undefined }),
    })
    .map(({ content, reasoning, calls, answer }) => {
      const assistant: Body = { role: 'assistant', content: calls.length === 0 && content === null ? 'ok' : content };
      if (reasoning !== undefined) assistant.reasoning_content = reasoning;
      if (calls.length > 0) assistant.tool_calls = calls;
      const outputs = calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'done' }));
      // After the tools' outputs, the assistant's answer.
      return [assistant, ...outputs, ...(outputs.length > 0 && answer !== undefined ? [{ role: 'assistant', content: answer }] : [])];
    });

const conversation = (withParts: boolean) =>
  fc
    .tuple(
      fc.option(text, { nil: undefined }),
      fc.array(fc.tuple(userMessage, fc.option(assistantTurn(withParts), { nil: undefined })), { minLength: 1, maxLength: 3 }),
    )
    .map(([system, turns]) => [
      ...(system !== undefined ? [{ role: 'system', content: system }] : []),
      ...turns.flatMap(([user, turn]) => [user, ...(turn ?? [])]),
    ]);

const functionTool = fc
  .record({ name, description: fc.option(text, { nil: undefined }), strict: fc.option(fc.boolean(), { nil: undefined }) })
  .map(({ name: toolName, description, strict }) => ({
    type: 'function',
    function: {
      name: toolName,
      parameters: { type: 'object', properties: {} },
      ...(description !== undefined ? { description } : {}),
      ...(strict !== undefined ? { strict } : {}),
    },
  }));

/** The top-level fields with a counterpart in the Responses API. */
const chatBody = (withParts: boolean) =>
  fc
    .record({
      model: fc.constantFrom('gpt-4o', 'o4-mini'),
      messages: conversation(withParts),
      tools: fc.uniqueArray(functionTool, { maxLength: 2, selector: (tool) => tool.function.name }),
      choice: fc.constantFrom('none', 'auto', 'required', 'named', undefined),
      parallel_tool_calls: fc.option(fc.boolean(), { nil: undefined }),
      limit: fc.option(fc.tuple(fc.constantFrom('max_tokens', 'max_completion_tokens'), fc.integer({ min: 16, max: 4096 })), {
        nil: undefined,
      }),
      temperature: fc.option(
        fc.integer({ min: 0, max: 20 }).map((t) => t / 10),
        { nil: undefined },
      ),
      top_p: fc.option(
        fc.integer({ min: 0, max: 10 }).map((p) => p / 10),
        { nil: undefined },
      ),
      response_format: fc.option(
        fc.oneof(
          fc.constant({ type: 'text' }),
          fc.constant({ type: 'json_object' }),
          fc.record({ name, strict: fc.option(fc.boolean(), { nil: undefined }) }).map(({ name: format, strict }) => ({
            type: 'json_schema',
            json_schema: {
              name: format,
              schema: { type: 'object', properties: { a: { type: 'string' } } },
              ...(strict !== undefined ? { strict } : {}),
            },
          })),
        ),
        { nil: undefined },
      ),
      reasoning_effort: fc.option(fc.constantFrom('none', 'minimal', 'low', 'medium', 'high'), { nil: undefined }),
      logprobs: fc.option(fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }), { nil: null }),
      stream: fc.boolean(),
      verbosity: fc.option(fc.constantFrom('low', 'medium', 'high'), { nil: undefined }),
      user: fc.option(name, { nil: undefined }),
      prompt_cache_key: fc.option(name, { nil: undefined }),
      safety_identifier: fc.option(name, { nil: undefined }),
      service_tier: fc.option(fc.constantFrom('auto', 'default', 'flex', 'priority'), { nil: undefined }),
      context_length_exceeded_behavior: fc.option(fc.constantFrom('truncate', 'error'), { nil: undefined }),
    })
    .map(({ tools, choice, limit, logprobs, stream, ...rest }) => {
      const body: Body = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
      if (tools.length > 0) {
        body.tools = tools;
        if (choice === 'named') body.tool_choice = { type: 'function', function: { name: tools[0].function.name } };
        else if (choice !== undefined) body.tool_choice = choice;
      } else if (choice === 'none' || choice === 'auto') body.tool_choice = choice;
      if (limit) body[limit[0]] = limit[1];
      if (logprobs !== null) {
        body.logprobs = true;
        if (logprobs !== undefined) body.top_logprobs = logprobs;
      }
      // A Responses stream always reports the usage: the chat request that means the same asks for it.
      if (stream) Object.assign(body, { stream: true, stream_options: { include_usage: true } });
      return body;
    });

describe('round trips', () => {
  test('chat -> Responses -> chat parses to the same neutral request, every change lossless', () => {
    fc.assert(
      fc.property(chatBody(true), (body) => {
        const there = chatToResponses(body);
        expect(there.changes.filter((change) => change.lossy)).toEqual([]);
        const back = responsesToChat(there.body);
        expect(back.changes.filter((change) => change.lossy)).toEqual([]);
        expect(chat(back.body)).toEqual(chat(body));
      }),
      { numRuns: 300 },
    );
  });

  test('a chat body and the Responses body it becomes mean the same to the proxy', () => {
    // Assistant answers as text: the Responses dialect reads an earlier answer's parts as its text.
    fc.assert(
      fc.property(chatBody(false), (body) => {
        expect(responses(chatToResponses(body).body)).toEqual(chat(body));
      }),
      { numRuns: 300 },
    );
  });

  const RESPONSES_BODIES: Body[] = [
    { model: 'm', input: 'Hi' },
    { model: 'm', instructions: 'Be brief.' },
    {
      model: 'm',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
          ],
        },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          status: 'completed',
          content: [{ type: 'output_text', text: 'A cat.', annotations: [] }],
        },
        { role: 'user', content: 'And now?' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Think.' }],
          content: [{ type: 'reasoning_text', text: 'More.' }],
        },
        { type: 'message', role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{}' },
        { type: 'custom_tool_call', call_id: 'c2', name: 'run', input: 'ls' },
        { type: 'function_call_output', call_id: 'c1', output: 'seen' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'a.txt' },
        { type: 'reasoning', id: 'rs_2', summary: [] },
        { type: 'function_call', call_id: 'c3', name: 'look', arguments: '{"again":true}' },
      ],
      tools: [
        { type: 'function', name: 'look', description: 'Look', parameters: { type: 'object' } },
        { type: 'custom', name: 'run', format: { type: 'grammar', syntax: 'regex', definition: '[a-z ]+' } },
      ],
      tool_choice: { type: 'custom', name: 'run' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true }, verbosity: 'high' },
      reasoning: { effort: 'minimal' },
      include: ['message.output_text.logprobs'],
      top_logprobs: 5,
      max_output_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      truncation: 'disabled',
      stream: true,
      service_tier: 'flex',
      prompt_cache_key: 'k',
      user: 'u',
    },
  ];

  test.each(RESPONSES_BODIES.map((body, i): [number, Body] => [i, body]))(
    'Responses -> chat -> Responses, and the chat request means the same (%i)',
    (_i, body) => {
      const there = responsesToChat(body);
      expect(there.changes.filter((change) => change.lossy)).toEqual([]);
      const back = chatToResponses(there.body);
      expect(back.changes.filter((change) => change.lossy)).toEqual([]);
      expect(responses(back.body)).toEqual(responses(body));
      // The chat dialect keeps an earlier answer's text parts as parts; the Responses dialect reads them as text.
      const asText = (request: ReturnType<typeof chat>) => ({
        ...request,
        messages: request.messages?.map((message) =>
          message.role === 'assistant' && Array.isArray(message.content) && message.content.every((part) => part.type === 'text')
            ? { ...message, content: message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }
            : message,
        ),
      });
      expect(asText(chat(there.body))).toEqual(responses(body));
    },
  );
});
