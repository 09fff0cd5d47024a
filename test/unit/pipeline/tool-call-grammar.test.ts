/**
 * The tool-call grammar's rules (toolCallGrammar); what the model samples under it on the real worker:
 * tool-call-grammar-on-worker.test.ts (the engine project).
 */
import { toolCallGrammar } from '../../../src/pipeline/plan/emulate/tool-call-grammar.js';
import { weather } from './weather-tool.js';

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
