/** dialects/openai-responses: every key of an input item, content part or tool is read, bookkeeping, or refused by name. */
import { parseResponsesRequest } from '../../../../src/dialects/openai-responses/parse-request.js';
import { ProxyError } from '../../../../src/errors/proxy-error.js';

const parse = (body: Record<string, unknown>) => parseResponsesRequest({ model: 'm', ...body });

function refusal(body: Record<string, unknown>): { param: string | null; code: string | null; message: string } {
  try {
    parse(body);
  } catch (error) {
    if (error instanceof ProxyError && error.status === 400) return { param: error.param, code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a 400');
}

describe('Responses input items', () => {
  test("an earlier output's id and status are bookkeeping: read past", () => {
    const request = parse({
      input: [
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }],
        },
      ],
    });
    expect(request.messages).toEqual([{ role: 'assistant', content: 'Hi' }]);
  });

  test('a key no item has is a 400 naming it', () => {
    expect(refusal({ input: [{ role: 'user', content: 'Hi', colour: 'red' }] })).toMatchObject({
      param: 'input[0].colour',
      message: 'Unrecognized field: input[0].colour.',
    });
  });

  test('an OpenAI-only key is refused with the reason, not dropped', () => {
    expect(refusal({ input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', namespace: 'crm' }] })).toMatchObject({
      param: 'input[0].namespace',
      code: 'unsupported_parameter',
      message: expect.stringMatching(/tool search/),
    });
    expect(refusal({ input: [{ role: 'assistant', content: 'Hi', phase: 'commentary' }] })).toMatchObject({
      param: 'input[0].phase',
      code: 'unsupported_parameter',
    });
  });

  test('a content part key no part has is a 400 naming it', () => {
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi', colour: 'red' }] }] })).toMatchObject({
      param: 'input[0].content[0].colour',
    });
  });

  test('a prompt cache breakpoint is kept on its part, as chat keeps it, and keeps text parts apart', () => {
    const breakpoint = { mode: 'explicit' };
    const request = parse({
      input: [
        {
          type: 'function_call_output',
          call_id: 'c',
          output: [{ type: 'input_text', text: 'Sunny', prompt_cache_breakpoint: breakpoint }],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'tool', toolCallId: 'c', content: [{ type: 'text', text: 'Sunny', extra: { prompt_cache_breakpoint: breakpoint } }] },
    ]);
  });
});

describe('Responses tools', () => {
  test("a function tool's OpenAI-only keys are refused with the reason", () => {
    expect(refusal({ input: 'Hi', tools: [{ type: 'function', name: 'f', defer_loading: true }] })).toMatchObject({
      param: 'tools[0].defer_loading',
      code: 'unsupported_parameter',
    });
  });

  test('a hosted tool is refused as such, whatever keys it has', () => {
    expect(refusal({ input: 'Hi', tools: [{ type: 'web_search', search_context_size: 'low' }] })).toMatchObject({
      param: 'tools[0].type',
      message: expect.stringMatching(/hosted tool/),
    });
  });
});
