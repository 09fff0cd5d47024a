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

  it('accepts null for every optional field the specs make nullable', () => {
    const nullable = ['temperature', 'top_p', 'stop', 'thinking', 'reasoning_effort', 'reasoning_history', 'stream_options', 'speculation', 'prediction', 'response_format', 'images', 'logprobs', 'sampling_mask'];
    expect(validator.validate('text', text(Object.fromEntries(nullable.map((field) => [field, null]))))).toEqual([]);
    const chatNullable = ['temperature', 'stop', 'thinking', 'reasoning_effort', 'stream_options', 'speculation', 'prediction', 'verbosity', 'moderation', 'service_tier', 'prompt_cache_retention'];
    expect(validator.validate('chat', chat(Object.fromEntries(chatNullable.map((field) => [field, null]))))).toEqual([]);
  });

  it.each(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive', 1, 4096, true, false])('chat reasoning_effort accepts %p', (effort) => {
    expect(validator.validate('chat', chat({ reasoning_effort: effort }))).toEqual([]);
  });

  it.each(['none', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive', 512, true, false])('completions reasoning_effort and thinking.effort accept %p', (effort) => {
    expect(validator.validate('text', text({ reasoning_effort: effort, thinking: { type: 'enabled', effort } }))).toEqual([]);
  });

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
    expect(validator.validate('text', text({ logprobs: true, stop: 'END', prediction: 'draft', speculation: [1, 2], images: ['data:image/png;base64,AA=='] }))).toEqual([]);
    expect(validator.validate('chat', chat({ stop: 'END', tool_choice: 'required', function_call: { name: 'f' }, response_format: { type: 'json_object' } }))).toEqual([]);
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
    ['chat', chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }), 'messages[0].content[0].image_url.url', 'missing'],
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
  ] as const)('%s %j -> %s (%s)', (endpoint, body, param, type) => {
    const issues = validator.validate(endpoint, body);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ param, type });
    expect(issues[0].message).toContain(param);
  });

  it('gives FastAPI-style locations and readable messages', () => {
    expect(validator.validate('chat', chat({ messages: [{ role: 'user', content: 'hi' }, { role: 'bot', content: 'x' }] }))).toEqual([
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
    expect(validator.validate('chat', body)).toEqual([expect.objectContaining({ param: '', loc: ['body'], message: 'The request body must be a JSON object.' })]);
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
