/** Tool-call grammars kept by content (cached-tool-call-grammar.ts): built once per tool set, never looser than the budget. */
import { cachedToolCallGrammar, grammarCache, grammarKey } from '../../../src/pipeline/plan/emulate/cached-tool-call-grammar.js';
import { toolCallGrammar, type GrammarTool } from '../../../src/pipeline/plan/emulate/tool-call-grammar.js';
import { weather } from './weather-tool.js';

const budget = { bytes: 1 << 20, ms: 10_000 };
const toolNamed = (name: string): GrammarTool => ({ name, parameters: { type: 'object', properties: { city: { type: 'string' } } } });

describe('cachedToolCallGrammar', () => {
  it('gives the grammar toolCallGrammar builds, and keeps it by what it is made of (not descriptions)', () => {
    const tools = [weather, toolNamed('lookup_a')];
    const grammar = cachedToolCallGrammar(tools, { single: false, budget });
    expect(grammar).toBe(toolCallGrammar(tools, { single: false, budget }));
    expect(grammarCache.get(grammarKey(tools, false))).toBe(grammar);
    // The same set as the next turn parses it, described otherwise: the same key.
    const described = structuredClone(tools).map((tool) => ({ ...tool, description: 'said otherwise' }));
    expect(grammarKey(described, false)).toBe(grammarKey(tools, false));
    // One call only, or other parameters, are other grammars.
    expect(grammarKey(tools, true)).not.toBe(grammarKey(tools, false));
    expect(grammarKey([weather, { ...toolNamed('lookup_a'), parameters: {} }], false)).not.toBe(grammarKey(tools, false));
  });

  it('answers from the cache: a kept grammar is what it returns', () => {
    const tools = [toolNamed('lookup_b')];
    grammarCache.set(grammarKey(tools, true), 'root ::= "kept"');
    expect(cachedToolCallGrammar(tools, { single: true, budget })).toBe('root ::= "kept"');
  });

  it('builds again, and fails as a build does, where a kept grammar is over the budget of the moment', () => {
    const tools = [toolNamed('lookup_c')];
    const grammar = cachedToolCallGrammar(tools, { single: true, budget });
    const small = { bytes: Buffer.byteLength(grammar) - 1, ms: 10_000 };
    expect(() => cachedToolCallGrammar(tools, { single: true, budget: small, param: 'functions' })).toThrow(
      expect.objectContaining({ status: 400, code: 'limit_exceeded', param: 'functions' }),
    );
  });

  it('keeps no failure', () => {
    const tools = [toolNamed('lookup_d')];
    expect(() => cachedToolCallGrammar(tools, { single: true, budget: { bytes: 64, ms: 10_000 } })).toThrow(/grammarBytes/);
    expect(grammarCache.has(grammarKey(tools, true))).toBe(false);
  });
});
