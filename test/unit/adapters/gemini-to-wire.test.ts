/** NeutralRequest -> Gemini bodies: a small request in, the exact body out; the tool schema rewriting; the signature in the call id. */
import { wireName } from '../../../adapters/gemini/gemini-errors.js';
import { geminiTable } from '../../../adapters/gemini/fields.js';
import { readSignature, SKIP_SIGNATURE, withSignature } from '../../../adapters/gemini/thought-signature.js';
import { toGoogleSchema } from '../../../adapters/gemini/tool-schema.js';
import { pathOf, toWireBody } from '../../../adapters/gemini/to-wire-body.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { emptyRequest, type Message, type NeutralRequest } from '../../../src/model/request.js';

const table = geminiTable({ toolSchemas: 'parametersJsonSchema' });
const parametersTable = geminiTable({ toolSchemas: 'parameters' });
const levelsTable = geminiTable({ toolSchemas: 'parametersJsonSchema', thinkingLevels: true });

const chat = (messages: Message[], extra: Partial<NeutralRequest> = {}): NeutralRequest => ({
  ...emptyRequest('chat', 'gemini-test'),
  messages,
  ...extra,
});

function rejection(run: () => unknown): { status: number; param: string | null; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ProxyError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('gemini toWireBody', () => {
  test('system and developer messages, wherever they stand, join systemInstruction in order; a late one is named', () => {
    const request = chat([
      { role: 'system', content: 'One.' },
      { role: 'user', content: 'Hi' },
      { role: 'developer', content: [{ type: 'text', text: 'Two.' }] },
      { role: 'system', content: 'Three.' },
    ]);
    expect(toWireBody(request, table)).toEqual({
      systemInstruction: { parts: [{ text: 'One.' }, { text: 'Two.' }, { text: 'Three.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
    expect(request.warnings).toHaveLength(2);
    expect(request.warnings[0]).toMatch(/^messages\[2\] \(developer\) was sent in systemInstruction/);
  });

  test('roles: assistant is model; turns of one role in a row are merged (tool results with the next user message)', () => {
    const request = chat([
      { role: 'user', content: 'A' },
      { role: 'user', content: 'B' },
      { role: 'assistant', content: 'C', toolCalls: [{ id: withSignature('c1', 'sig'), name: 'f', arguments: '{"x":1}' }] },
      { role: 'tool', toolCallId: withSignature('c1', 'sig'), content: 'done' },
      { role: 'user', content: 'D' },
    ]);
    expect(toWireBody(request, table).contents).toEqual([
      { role: 'user', parts: [{ text: 'A' }, { text: 'B' }] },
      { role: 'model', parts: [{ text: 'C' }, { functionCall: { id: 'c1', name: 'f', args: { x: 1 } }, thoughtSignature: 'sig' }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'f', response: { result: 'done' } } }, { text: 'D' }] },
    ]);
    expect(request.warnings).toEqual([]);
  });

  test('a call without a signature gets the bypass value and a warning; a failed result goes as {error}', () => {
    const request = chat([
      { role: 'user', content: 'A' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: '' }] },
      { role: 'tool', toolCallId: 'toolu_1', content: 'boom', toolError: true },
    ]);
    const contents = toWireBody(request, table).contents as unknown[];
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'toolu_1', name: 'f', args: {} }, thoughtSignature: SKIP_SIGNATURE }],
    });
    expect(contents[2]).toEqual({ role: 'user', parts: [{ functionResponse: { id: 'toolu_1', name: 'f', response: { error: 'boom' } } }] });
    expect(request.warnings[0]).toContain(SKIP_SIGNATURE);
  });

  test('a tool result that answers no call in the history is a 400 naming it', () => {
    const request = chat([
      { role: 'user', content: 'A' },
      { role: 'tool', toolCallId: 'nowhere', content: 'x' },
    ]);
    expect(rejection(() => toWireBody(request, table))).toMatchObject({ status: 400, param: 'messages[1].tool_call_id' });
  });

  test('images: data URLs inline, other URLs as fileData', () => {
    const request = chat([
      {
        role: 'user',
        content: [
          { type: 'image', url: 'data:image/png;base64,AAAA' },
          { type: 'image', url: 'https://example.com/cat.jpg' },
        ],
      },
    ]);
    expect(toWireBody(request, table).contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
  });

  test('sampling, n, logprobs, JSON output and tool choice in their places', () => {
    const request = chat([{ role: 'user', content: 'A' }], {
      sampling: { temperature: 0.2, topK: 5, presencePenalty: 0.1, frequencyPenalty: 0.3 },
      choices: 2,
      logprobs: { top: 3, shape: 'chat' },
      responseFormat: { type: 'json_schema', schema: { type: 'object' } },
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      toolChoice: { name: 'f' },
    });
    expect(toWireBody(request, table)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'A' }] }],
      generationConfig: {
        temperature: 0.2,
        topK: 5,
        presencePenalty: 0.1,
        frequencyPenalty: 0.3,
        candidateCount: 2,
        responseLogprobs: true,
        logprobs: 3,
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object' },
      },
      tools: [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object' } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
    });
  });

  test('thinking: budgets (none is 0, adaptive is -1) or, with thinkingLevels, levels', () => {
    const think = (reasoning: NeutralRequest['reasoning'], on = table) =>
      toWireBody(chat([{ role: 'user', content: 'A' }], { reasoning }), on).generationConfig;
    expect(think({ budgetTokens: 1000 })).toEqual({ thinkingConfig: { thinkingBudget: 1000, includeThoughts: true } });
    expect(think({ effort: 'none' })).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(think({ effort: 'adaptive' })).toEqual({ thinkingConfig: { thinkingBudget: -1, includeThoughts: true } });
    expect(think({ effort: 'low' }, levelsTable)).toEqual({ thinkingConfig: { thinkingLevel: 'low', includeThoughts: true } });
  });

  test('the URL: the model in the path, the stream by the method', () => {
    const request = chat([]);
    expect(pathOf(request, false)).toBe('/models/gemini-test:generateContent');
    expect(pathOf(request, true)).toBe('/models/gemini-test:streamGenerateContent?alt=sse');
  });

  test('toolSchemas: parameters rewrites a schema, or refuses by name', () => {
    const request = chat([{ role: 'user', content: 'A' }], {
      tools: [
        {
          name: 'f',
          parameters: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            type: 'object',
            properties: { unit: { const: 'C' }, place: { $ref: '#/$defs/Place' }, note: { type: ['string', 'null'] } },
            $defs: { Place: { type: 'object', properties: { city: { type: 'string' } } } },
          },
        },
      ],
    });
    expect(toWireBody(request, parametersTable).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'f',
            parameters: {
              type: 'object',
              properties: {
                unit: { enum: ['C'], type: 'string' },
                place: { type: 'object', properties: { city: { type: 'string' } } },
                note: { type: 'string', nullable: true },
              },
            },
          },
        ],
      },
    ]);
    const strict = chat([{ role: 'user', content: 'A' }], {
      tools: [{ name: 'g' }, { name: 'f', parameters: { type: 'object', additionalProperties: false } }],
    });
    expect(rejection(() => toWireBody(strict, parametersTable))).toMatchObject({
      status: 400,
      param: 'tools',
      message: expect.stringContaining('the parameters of function "f" use the keyword additionalProperties (at additionalProperties)'),
    });
  });
});

describe('google schema', () => {
  test('a recursive $ref is refused, naming where', () => {
    const schema = {
      type: 'object',
      properties: { child: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    };
    expect(rejection(() => toGoogleSchema(schema, { param: 'tools', tool: 'tree' }))).toMatchObject({
      param: 'tools',
      message: expect.stringContaining('function "tree" use a recursive $ref (#/$defs/Node) (at properties.child.properties.next.$ref)'),
    });
  });
  test('oneOf is refused (anyOf is not the same), a non-string const too', () => {
    const owner = { param: 'tools', tool: 'f' };
    expect(rejection(() => toGoogleSchema({ oneOf: [{ type: 'string' }] }, owner)).message).toContain('the keyword oneOf (at oneOf)');
    expect(rejection(() => toGoogleSchema({ const: 3 }, owner)).message).toContain('a const that is not a string');
  });
});

describe('thought signature in the call id', () => {
  test('round trip, in characters every dialect takes as an id', () => {
    const signature = 'CiQBjz1rX+/abc==\u00e9';
    const id = withSignature('call_1', signature);
    expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(readSignature(id)).toEqual({ id: 'call_1', signature });
    expect(readSignature('toolu_01')).toEqual({ id: 'toolu_01' });
    expect(withSignature('x', undefined)).toBe('x');
  });
});

describe("Google's field paths", () => {
  test('a proto path is the wire body name; the conversation and tools are the caller fields; the proxy own params stay', () => {
    expect(wireName('generation_config.thinking_config.thinking_budget')).toBe('generationConfig.thinkingConfig.thinkingBudget');
    expect(wireName('contents[3].parts[0].function_response')).toBe('messages');
    expect(wireName('system_instruction.parts')).toBe('messages');
    expect(wireName('tools[0].function_declarations[2].parameters')).toBe('tools');
    expect(wireName('max_completion_tokens')).toBe('max_completion_tokens');
    expect(wireName('thinking.budget_tokens')).toBe('thinking.budget_tokens');
  });
});
