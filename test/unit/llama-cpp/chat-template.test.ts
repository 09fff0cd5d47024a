import { renderModelChat } from '../../../adapters/llama-cpp/chat-template.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('renderModelChat', () => {
  it('falls back to ChatML when the model has no template', () => {
    expect(renderModelChat({ addBos: true, bosToken: '<s>' }, messages)).toEqual({
      prompt: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
      addBos: true,
    });
  });

  it("renders the model's own template with its BOS/EOS, and does not add a BOS the template wrote", () => {
    const chatTemplate =
      '{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}{{ eos_token }}{% endfor %}{% if add_generation_prompt %}[assistant] {% endif %}';
    expect(renderModelChat({ chatTemplate, bosToken: '<s>', eosToken: '</s>', addBos: true }, messages)).toEqual({
      prompt: '<s>[user] Hi</s>[assistant] ',
      addBos: false,
    });
  });

  it('passes tools and extra variables to the template', () => {
    const chatTemplate = '{% for t in tools %}{{ t.function.name }};{% endfor %}{{ enable_thinking }}';
    const rendered = renderModelChat({ chatTemplate, addBos: false }, messages, {
      tools: [{ name: 'lookup' }],
      variables: { enable_thinking: false },
    });
    expect(rendered.prompt).toBe('lookup;false');
  });
});
