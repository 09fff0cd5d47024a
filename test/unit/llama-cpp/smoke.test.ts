import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import type { LlamaGenerateRequest } from '../../../adapters/llama-cpp/types.js';
const base: LlamaGenerateRequest = { prompt: 'Once upon a time', stop: [], onContextOverflow: 'truncate' };
describe('smoke', () => {
  const host = new LlamaWorkerHost({ model: '/work/shared/models/stories260K.gguf', parallel: 2 });
  afterAll(() => host.close());
  async function run(r: Partial<LlamaGenerateRequest>) {
    let text = ''; let end;
    for await (const e of host.generate({ ...base, ...r })) { if (e.type === 'token') text += e.text; if (e.type === 'end') end = e; }
    return { text, end };
  }
  it('generates', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] };
    console.log(await run({ grammar: { kind: 'json-schema', schema }, maxTokens: 100, temperature: 0 }));
    console.log(await run({ grammar: { kind: 'json-schema', schema }, maxTokens: 100, temperature: 0.8, seed: 1, logprobs: 2 }));
    console.log(await run({ grammar: { kind: 'json' }, maxTokens: 100, temperature: 0.8, seed: 1, logprobs: 2 }));
    console.log(await run({ grammar: { kind: 'gbnf', text: 'root ::= "yes" | "no"' }, maxTokens: 10, temperature: 0 }));
    console.log(await run({ logitBias: { 2: 100 }, maxTokens: 10, temperature: 0 }));
    console.log(await run({ logitBias: { 2: 100 }, ignoreEos: true, maxTokens: 10, temperature: 0 }));
    console.log(await run({ thinking: { budgetTokens: 5, budgetEndText: ' The end.', openTag: '<think>', closeTag: '</think>', startsInside: true }, maxTokens: 30, temperature: 0, logprobs: 1 }));
    console.log(await run({ typicalP: 0.5, maxTokens: 30, temperature: 1, seed: 3 }));
    console.log(await run({ presencePenalty: 1.5, frequencyPenalty: 0.5, repetitionPenalty: 1.3, maxTokens: 30, temperature: 0 }));
  });
});
