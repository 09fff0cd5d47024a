/** ChatML written out in TypeScript renders what its Jinja source renders through @huggingface/jinja, for any conversation. */
import { Template } from '@huggingface/jinja';
import fc from 'fast-check';
import { chatmlTemplate, renderChatTemplate } from '../../../src/model/render-chat-template.js';
import { renderChatml, type ChatmlContext } from '../../../src/model/render-chatml.js';

const jinja = new Template(chatmlTemplate);

const text = fc.oneof(fc.string(), fc.constantFrom('', ' ', '{{ x }}', '{% if %}', '<|im_end|>', '\n', 'é😀"\\'));
/** JSON-like values as tool parameters and call arguments: undefined members too, which tojson writes as null. */
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, undefined, true, false, 0, -1, 1.5, 1e21, -0),
    fc.double(),
    fc.integer(),
    text,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 3 }),
  ),
})).value;
const call = fc.record({ function: fc.record({ name: text, arguments: fc.oneof(text, value) }) });
const message = fc.record(
  {
    role: fc.constantFrom('system', 'user', 'assistant', 'tool', 'developer', 'other'),
    content: text,
    reasoning_content: fc.option(text, { nil: undefined }),
    tool_calls: fc.option(fc.array(call, { maxLength: 2 }), { nil: undefined }),
  },
  { requiredKeys: ['role', 'content'] },
);
const context: fc.Arbitrary<ChatmlContext> = fc.record({
  messages: fc.array(message, { maxLength: 5 }),
  tools: fc.option(
    fc.array(fc.record({ type: fc.constant('function'), function: fc.dictionary(text, value, { maxKeys: 4 }) }), { maxLength: 3 }),
    { nil: undefined },
  ),
  add_generation_prompt: fc.boolean(),
});

describe('renderChatml', () => {
  it('renders any conversation as the Jinja source does', () => {
    fc.assert(
      fc.property(context, (input) => {
        expect(renderChatml(input)).toBe(jinja.render({ ...input, bos_token: '', eos_token: '' }));
      }),
      { numRuns: 2000 },
    );
  });

  it('is what renderChatTemplate uses for ChatML, unless a variable stands for one it reads', () => {
    const messages = [{ role: 'user' as const, content: 'Hi' }];
    expect(renderChatTemplate(messages)).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
    expect(renderChatTemplate(messages, { variables: { enable_thinking: false } })).toBe(
      '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
    // Jinja takes the variable's value.
    expect(renderChatTemplate(messages, { variables: { add_generation_prompt: false } })).toBe('<|im_start|>user\nHi<|im_end|>\n');
  });
});
