import { llamaCppTable } from '../../../adapters/llama-cpp/fields.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import { defaultBudgetEndText, toGenerateRequest } from '../../../adapters/llama-cpp/to-generate-request.js';

function textRequest(patch: Partial<NeutralRequest>): NeutralRequest {
  return { ...emptyRequest('text', 'local'), prompt: 'Once upon a time', ...patch };
}

describe('toGenerateRequest', () => {
  it('maps sampling, limits, logprobs and echo one to one', () => {
    const request = textRequest({
      sampling: {
        temperature: 0.7,
        topP: 0.9,
        topK: 40,
        minP: 0.05,
        typicalP: 0.8,
        seed: 3,
        presencePenalty: 0.5,
        frequencyPenalty: 0.25,
        repetitionPenalty: 1.1,
        logitBias: { '13': -100 },
      },
      limits: { maxTokens: 16, stop: ['\n'], ignoreEos: true, onContextOverflow: 'error' },
      logprobs: { top: 3, shape: 'legacy' },
      echo: { all: false, lastTokens: 2 },
    });
    expect(toGenerateRequest(request)).toEqual({
      prompt: 'Once upon a time',
      onContextOverflow: 'error',
      stop: ['\n'],
      maxTokens: 16,
      ignoreEos: true,
      temperature: 0.7,
      topK: 40,
      topP: 0.9,
      minP: 0.05,
      typicalP: 0.8,
      repetitionPenalty: 1.1,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      seed: 3,
      logitBias: { 13: -100 },
      logprobs: 3,
      echo: { all: false, lastTokens: 2 },
    });
  });

  it('takes token-id prompts and refuses batches (the pipeline splits them)', () => {
    expect(toGenerateRequest(textRequest({ prompt: [1, 403] })).prompt).toEqual([1, 403]);
    expect(() => toGenerateRequest(textRequest({ prompt: ['a', 'b'] }))).toThrow(expect.objectContaining({ status: 400, param: 'prompt' }));
  });

  it('maps response formats to grammars', () => {
    const schema = { type: 'object' };
    expect(toGenerateRequest(textRequest({ responseFormat: { type: 'json_object' } })).grammar).toEqual({ kind: 'json' });
    expect(toGenerateRequest(textRequest({ responseFormat: { type: 'json_schema', schema } })).grammar).toEqual({
      kind: 'json-schema',
      schema,
    });
    expect(toGenerateRequest(textRequest({ responseFormat: { type: 'grammar', grammar: 'root ::= "a"' } })).grammar).toEqual({
      kind: 'gbnf',
      text: 'root ::= "a"',
    });
    expect(toGenerateRequest(textRequest({ responseFormat: { type: 'text' } })).grammar).toBeUndefined();
  });

  it('turns a thinking budget into a forced end of thought, open from the start when the prompt opened it', () => {
    const request = textRequest({ prompt: '<|im_start|>assistant\n<think>\n', reasoning: { budgetTokens: 64 } });
    expect(toGenerateRequest(request).thinking).toEqual({
      budgetTokens: 64,
      budgetEndText: defaultBudgetEndText,
      openTag: '<think>',
      closeTag: '</think>',
      startsInside: true,
    });
    expect(
      toGenerateRequest({ ...request, prompt: 'x' }, llamaCppTable({ thinkTags: { open: '<t>', close: '</t>' } })).thinking,
    ).toMatchObject({ openTag: '<t>', closeTag: '</t>', startsInside: false });
  });

  it('rejects logit_bias keys that are not token ids, naming the field', () => {
    expect(() => toGenerateRequest(textRequest({ sampling: { logitBias: { hello: 1 } } }))).toThrow(
      expect.objectContaining({ param: 'logit_bias.hello' }),
    );
  });
});
