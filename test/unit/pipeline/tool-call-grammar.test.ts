/**
 * The tool-call grammar on the real worker: whatever the model samples under it
 * is a Hermes tool call whose arguments follow the tool's schema.
 */
import { toolCallGrammar } from '../../../src/pipeline/plan/emulate/tool-call-grammar.js';
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { baseRequest, describeShared, storiesPath } from '../llama-cpp/helpers.js';

const weather = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer' },
      hourly: { type: 'boolean' },
      places: {
        type: 'array',
        items: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat', 'lon'] },
      },
      note: { type: ['string', 'null'] },
    },
    required: ['city', 'unit'],
  },
};
const search = { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } };
const freeForm = { name: 'anything', parameters: { type: 'object' } };

function callsIn(text: string): { name: string; arguments: Record<string, unknown> }[] {
  const calls = [...text.matchAll(/<tool_call>\n([\s\S]*?)\n<\/tool_call>/g)].map(
    (match) => JSON.parse(match[1]) as { name: string; arguments: Record<string, unknown> },
  );
  expect(text.replace(/<tool_call>\n[\s\S]*?\n<\/tool_call>/g, '').replace(/\n/g, '')).toBe('');
  return calls;
}

function expectWeatherArguments(args: Record<string, unknown>): void {
  expect(Object.keys(args).every((key) => key in weather.parameters.properties)).toBe(true);
  expect(typeof args.city).toBe('string');
  expect(['celsius', 'fahrenheit']).toContain(args.unit);
  if ('days' in args) expect(Number.isInteger(args.days)).toBe(true);
  if ('hourly' in args) expect(typeof args.hourly).toBe('boolean');
  if ('note' in args) expect(args.note === null || typeof args.note === 'string').toBe(true);
  if ('places' in args) {
    for (const place of args.places as Record<string, unknown>[]) {
      expect(Object.keys(place).sort()).toEqual(['lat', 'lon']);
      expect(typeof place.lat).toBe('number');
    }
  }
}

describe('toolCallGrammar', () => {
  it('names each tool in its own call rule, and falls back to any object without a schema', () => {
    const grammar = toolCallGrammar([weather, { name: 'ping' }], { single: true });
    expect(grammar).toMatch(/^root ::= call\n/);
    expect(toolCallGrammar([weather], { single: false })).toMatch(/^root ::= call \( "\\n" call \)\{0,15\}\n/);
    expect(grammar).toContain('call ::= call0 | call1');
    expect(grammar).toContain('call1 ::= "<tool_call>\\n{\\"name\\": " "\\"ping\\"" ", \\"arguments\\": " object');
    expect(grammar).toContain('"\\"unit\\"" ws ":" ws args0-1');
    expect(grammar).toContain('args0-1 ::= ( "\\"celsius\\"" | "\\"fahrenheit\\"" ) ws');
  });
});

describe('toolCallGrammar schema rules', () => {
  const rulesOf = (parameters: Record<string, unknown>) => toolCallGrammar([{ name: 't', parameters }], { single: true }).split('\n');

  it('without required properties, any in-order subset, none included', () => {
    expect(rulesOf({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } })).toContain(
      'args0 ::= "{" ws ( ( "\\"a\\"" ws ":" ws string ( "," ws "\\"b\\"" ws ":" ws integer )? ) | ( "\\"b\\"" ws ":" ws integer ) )? "}" ws',
    );
  });

  it('properties without a type are an object; other properties allowed, any object', () => {
    expect(rulesOf({ properties: { a: { type: 'boolean' } }, required: ['a'] })).toContain(
      'args0 ::= "{" ws "\\"a\\"" ws ":" ws boolean "}" ws',
    );
    expect(
      rulesOf({ type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: true }).some((rule) =>
        rule.startsWith('args0 ::='),
      ),
    ).toBe(false);
  });

  it('what it does not model (anyOf, $ref) admits any value', () => {
    const rules = rulesOf({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] }, b: { $ref: '#/$defs/x' } },
      required: ['a', 'b'],
    });
    expect(rules).toContain('args0 ::= "{" ws "\\"a\\"" ws ":" ws value "," ws "\\"b\\"" ws ":" ws value "}" ws');
  });

  it('a type list walks its node once per type: the same object twice is one rule, its properties walked once', () => {
    const rules = rulesOf({
      type: ['object', 'object', 'null'],
      properties: { a: { type: ['object', 'object'], properties: { b: { type: 'string' } } } },
    });
    expect(rules).toContain('args0 ::= args0-0 | null');
    expect(rules).toContain('args0-0 ::= "{" ws ( ( "\\"a\\"" ws ":" ws args0-0-0 ) )? "}" ws');
    expect(rules).toContain('args0-0-0 ::= args0-0-0-0');
    expect(rules.filter((rule) => rule.includes('"\\"b\\""'))).toHaveLength(1);
  });

  it('a type list of 8 objects nested 9 deep makes a small grammar (k^9 rules before)', () => {
    let node: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 9; i++) node = { type: Array(8).fill('object'), properties: { a: node } };
    expect(rulesOf(node).join('\n').length).toBeLessThan(20_000);
  });

  it("past the budget, a 400 limit_exceeded naming the caller's field and the config key", () => {
    const properties = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const build = (budget: { bytes: number; ms: number }) =>
      toolCallGrammar([{ name: 't', parameters: { type: 'object', properties } }], { single: true, budget, param: 'functions' });
    expect(build({ bytes: 1 << 20, ms: 50 }).length).toBeLessThan(1 << 20);
    expect(() => build({ bytes: 2000, ms: 50 })).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'limit_exceeded',
        param: 'functions',
        message: "the grammar that holds tool calls to the tools' parameters would exceed 2000 bytes (limits.grammarBytes).",
      }),
    );
  });

  it('past the time budget (looked at every 256 schema nodes), a 400 naming limits.grammarMs', () => {
    const tools = Array.from({ length: 300 }, (_, i) => ({
      name: `t${i}`,
      parameters: { type: 'object', properties: { a: { type: 'string' } } },
    }));
    expect(() => toolCallGrammar(tools, { single: true, budget: { bytes: 1 << 20, ms: -1 } })).toThrow(
      expect.objectContaining({
        code: 'limit_exceeded',
        param: 'tools',
        message: expect.stringMatching(/would take over -1 ms \(limits\.grammarMs\)\.$/),
      }),
    );
  });

  it('a type named after an Object method admits any value', () => {
    expect(rulesOf({ type: 'object', properties: { a: { type: 'toString' } }, required: ['a'] })).toContain(
      'args0 ::= "{" ws "\\"a\\"" ws ":" ws value "}" ws',
    );
  });
});

describeShared('toolCallGrammar on the worker (stories260K, sampled)', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 4, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());

  /** The text sampled under the grammar, cut after its last complete call when max_tokens ended it. */
  async function sample(grammar: string, seed: number): Promise<string> {
    let text = '';
    for await (const event of host.generate({
      ...baseRequest,
      prompt: 'Call a tool:',
      grammar: { kind: 'gbnf', text: grammar },
      temperature: 1.2,
      seed,
      maxTokens: 800,
    })) {
      if (event.type === 'token') text += event.text;
      if (event.type === 'end' && event.finishReason === 'length') {
        const end = text.lastIndexOf('</tool_call>');
        text = end < 0 ? '' : text.slice(0, end + '</tool_call>'.length);
      }
    }
    return text;
  }

  /**
   * One seed at a time: sequences decoded in one batch get slightly different logits depending on
   * how the batch was made up (the machine's load decides that), so samples taken together are
   * not reproducible, and a long one can run out of tokens; taken alone, each seed gives one text.
   */
  async function samples(grammar: string, seeds: number[]): Promise<string[]> {
    const texts: string[] = [];
    for (const seed of seeds) texts.push(await sample(grammar, seed));
    return texts;
  }

  it('a named tool: exactly one call, its arguments following the schema', async () => {
    const grammar = toolCallGrammar([weather], { single: true });
    const texts = await samples(grammar, [1, 2, 3, 4]);
    for (const text of texts) {
      const calls = callsIn(text);
      expect(calls).toHaveLength(1);
      expect(calls[0].name).toBe('get_weather');
      expectWeatherArguments(calls[0].arguments);
    }
  }, 60_000);

  it('required: any of the tools, each call following its own schema; a free-form tool takes any object', async () => {
    const grammar = toolCallGrammar([weather, search, freeForm], { single: false });
    const texts = await samples(grammar, [5, 6, 7, 8]);
    const calls = texts.flatMap(callsIn);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const call of calls) {
      expect(['get_weather', 'search', 'anything']).toContain(call.name);
      if (call.name === 'get_weather') expectWeatherArguments(call.arguments);
      if (call.name === 'search') {
        expect(Object.keys(call.arguments).every((key) => key === 'query' || key === 'limit')).toBe(true);
        if ('limit' in call.arguments) expect(Number.isInteger(call.arguments.limit)).toBe(true);
      }
      if (call.name === 'anything') expect(typeof call.arguments).toBe('object');
    }
  }, 60_000);
});
