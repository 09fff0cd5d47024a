import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { withIntegersOnly } from '../../../adapters/llama-cpp/json-schema-grammar.js';

test("an integer in a JSON schema admits no exponent (node-llama-cpp's own rule does)", async () => {
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const generated = await llama.createGrammarForJsonSchema({ type: 'object', properties: { age: { type: 'integer' } } });
  const rule = (grammar: string) => grammar.split('\n').find((line) => line.startsWith('integer-number-rule ::='));
  expect(rule(generated.grammar)).toContain('[eE]');
  expect(rule(withIntegersOnly(generated.grammar))).toBe('integer-number-rule ::= "-"? ("0" | [1-9] [0-9]{0,15})');
  // The patched grammar still compiles.
  await expect(llama.createGrammar({ grammar: withIntegersOnly(generated.grammar) })).resolves.toBeDefined();
});
