/**
 * Custom tools carried as functions (emulate/custom-tools.ts) and their regex
 * input held by a grammar (emulate/regex-gbnf.ts): the conversion is exact or
 * refused. That what the worker samples under it is an input the regex matches:
 * custom-tools-on-worker.test.ts (the engine project).
 */
import { customToolsAsFunctions, unwrapCustomCalls, unwrapInput } from '../../../src/pipeline/plan/emulate/custom-tools.js';
import { regexToGbnf } from '../../../src/pipeline/plan/emulate/regex-gbnf.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';
import type { Engine } from '../../../src/pipeline/plan/emulate/engine.js';

const context = { signal: new AbortController().signal, requestId: 'r' };

describe('customToolsAsFunctions', () => {
  test('a custom tool becomes a function with one string parameter; earlier custom calls become function calls', () => {
    const request: NeutralRequest = {
      ...emptyRequest('chat', 'm'),
      tools: [
        { name: 'sql', description: 'Runs SQL', custom: { format: { type: 'text' } } },
        { name: 'f', parameters: { type: 'object' } },
      ],
      messages: [{ role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'sql', arguments: 'SELECT "x"', custom: true }] }],
    };
    expect([...(customToolsAsFunctions(request) ?? [])]).toEqual(['sql']);
    expect(request.tools?.[0]).toEqual({
      name: 'sql',
      description: 'Runs SQL',
      parameters: {
        type: 'object',
        properties: { input: { type: 'string', description: 'The input, as free text.' } },
        required: ['input'],
        additionalProperties: false,
      },
    });
    expect(request.tools?.[1]).toEqual({ name: 'f', parameters: { type: 'object' } });
    expect(request.messages?.[0].toolCalls).toEqual([{ id: 'c', name: 'sql', arguments: '{"input":"SELECT \\"x\\""}' }]);
  });

  test('unwrapInput: the input string; anything else is the input as the model wrote it', () => {
    expect(unwrapInput('{"input": "a\\nb"}')).toBe('a\nb');
    expect(unwrapInput('"bare"')).toBe('bare');
    expect(unwrapInput('{"other": 1}')).toBe('{"other": 1}');
    expect(unwrapInput('not json')).toBe('not json');
  });

  test('streamed: a custom call is held until its choice ends and goes out whole; function calls pass as they come', async () => {
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'x', model: 'm', created: 1 },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'sql', argumentsDelta: '{"input": "SEL' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'c2', name: 'f', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'ECT 1"}' },
      { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
    ];
    const inner: Engine = {
      complete: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield* events.map((event) => [event]);
      },
    };
    const out: StreamEvent[] = [];
    for await (const event of eachEvent(unwrapCustomCalls(inner, new Set(['sql'])).stream(emptyRequest('chat'), context))) out.push(event);
    expect(out.slice(1)).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'c2', name: 'f', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'sql', argumentsDelta: 'SELECT 1', custom: true },
      { type: 'choice-end', choice: 0, finishReason: 'tool_calls' },
    ]);
  });

  test('whole: the call named after a custom tool comes back as one', async () => {
    const inner: Engine = {
      complete: async () => ({
        id: 'x',
        model: 'm',
        created: 1,
        choices: [
          {
            index: 0,
            text: '',
            finishReason: 'tool_calls',
            toolCalls: [
              { id: 'c', name: 'sql', arguments: '{"input":"SELECT 1"}' },
              { id: 'd', name: 'f', arguments: '{}' },
            ],
          },
        ],
      }),
      stream: () => {
        throw new Error('unused');
      },
    };
    const result = await unwrapCustomCalls(inner, new Set(['sql'])).complete(emptyRequest('chat'), context);
    expect(result.choices[0].toolCalls).toEqual([
      { id: 'c', name: 'sql', arguments: 'SELECT 1', custom: true },
      { id: 'd', name: 'f', arguments: '{}' },
    ]);
  });
});

describe('regexToGbnf', () => {
  test.each([
    ['^ORD-[0-9]{4}$', '"O" "R" "D" "-" [\\u0030-\\u0039]{4}'],
    ['(yes|no)?', '( "y" "e" "s" | "n" "o" )?'],
    [
      'a.b',
      `"a" ( [^\\u000A\\u0000-\\u001F\\u0022\\u005C] | ${[...Array(32).keys()]
        .filter((c) => c !== 10)
        .map((c) => `"${JSON.stringify(String.fromCharCode(c)).slice(1, -1).replace(/\\/g, '\\\\')}"`)
        .join(' | ')} | "\\\\\\"" | "\\\\\\\\" ) "b"`,
    ],
    ['["a]+', '( [\\u0061] | "\\\\\\"" )+'],
    ['x\\n*?', '"x" "\\\\n"*'],
  ])('%s', (pattern, expression) => {
    expect(regexToGbnf(pattern)).toEqual({ ok: true, expression });
  });

  test.each([
    ['\\d+', /\\d/],
    ['\\w+', /\\w/],
    ['\\bword', /\\b/],
    ['(?=a)a', /look-arounds/],
    ['(a)\\1', /back-references/],
    ['(?i)abc', /inline flags/],
    ['a++', /possessive/],
    ['a^b', /"\^"/],
    ['[[:alpha:]]', /nested classes/],
    ['a{2,1}', /repetition/],
  ])('%s is refused', (pattern, why) => {
    const converted = regexToGbnf(pattern);
    expect(converted.ok).toBe(false);
    expect(converted.ok ? '' : converted.why).toMatch(why);
  });
});
