/**
 * A custom tool's regex input held by a grammar (emulate/regex-gbnf.ts) on the real worker:
 * what it samples under the grammar is an input the regex matches.
 */
import { regexToGbnf } from '../../../src/pipeline/plan/emulate/regex-gbnf.js';
import { toolCallGrammar } from '../../../src/pipeline/plan/emulate/tool-call-grammar.js';
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { baseRequest, describeShared, storiesPath } from '../llama-cpp/helpers.js';

describeShared('a custom tool regex on the worker (stories260K, sampled)', () => {
  const host = new LlamaWorkerHost({ model: storiesPath, parallel: 4, showProgress: false });
  beforeAll(() => host.start(), 30_000);
  afterAll(() => host.close());

  async function inputs(pattern: string, seeds: number[]): Promise<string[]> {
    const converted = regexToGbnf(pattern);
    if (!converted.ok) throw new Error(converted.why);
    const grammar = toolCallGrammar([{ name: 'lookup', inputGrammar: converted.expression }], { single: true });
    return Promise.all(
      seeds.map(async (seed) => {
        let text = '';
        for await (const event of host.generate({
          ...baseRequest,
          prompt: 'Call a tool:',
          grammar: { kind: 'gbnf', text: grammar },
          temperature: 1.5,
          seed,
          maxTokens: 400,
        })) {
          if (event.type === 'token') text += event.text;
        }
        const call = /^<tool_call>\n([\s\S]*)\n<\/tool_call>$/.exec(text);
        expect(call).not.toBeNull();
        const parsed = JSON.parse(call?.[1] ?? '') as { name: string; arguments: { input: string } };
        expect(parsed.name).toBe('lookup');
        return parsed.arguments.input;
      }),
    );
  }

  test.each([['^ORD-[0-9]{4}$'], ['[a-c"\\\\]{1,6}'], ['(yes|no|maybe "so")'], ['[^a-z]{2,5}']])(
    'every sampled input matches %s in full',
    async (pattern) => {
      const regex = new RegExp(`^(?:${pattern.replace(/^\^/, '').replace(/\$$/, '')})$`, 'u');
      for (const input of await inputs(pattern, [1, 2, 3, 4])) expect(input).toMatch(regex);
    },
    60_000,
  );
});
