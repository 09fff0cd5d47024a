/**
 * `developer` messages (what the openai SDK, LangChain and the AI SDK send for
 * o-series and gpt-5 models) are the system turn of a template that has no
 * developer role, and the template's own developer turn where it has one.
 */
import { hasDeveloperRole, renderChatTemplate, chatmlTemplate } from '../../../src/model/render-chat-template.js';
import { toTextRequest } from '../../../src/pipeline/plan/emulate/chat-over-text.js';
import { emptyRequest, type Message, type NeutralRequest } from '../../../src/model/request.js';
import { renderModelChat } from '../../../adapters/llama-cpp/chat-template.js';
import { developerRoleTemplate, qwen25Template } from '../../helpers/chat-templates.js';

const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const conversation: Message[] = [
  { role: 'developer', content: 'Answer in French.' },
  { role: 'user', content: 'Hi' },
];

describe('developer messages in a rendered prompt', () => {
  test('ChatML: the system turn, never a <|im_start|>developer turn', () => {
    expect(renderChatTemplate(conversation)).toBe(
      '<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  test('ChatML with tools: the instruction heads the system turn that describes the tools', () => {
    const prompt = renderChatTemplate(conversation, { tools: [weather] });
    expect(prompt.startsWith('<|im_start|>system\nAnswer in French.\n\n# Tools\n')).toBe(true);
    expect(prompt).not.toContain('developer');
    // Rendered once, inside the tools' system turn.
    expect(prompt.split('Answer in French.')).toHaveLength(2);
  });

  test("a Qwen2.5-style model template: the instruction replaces the template's default system prompt", () => {
    const prompt = renderChatTemplate(conversation, { template: qwen25Template });
    expect(prompt).toBe('<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
    expect(prompt).not.toContain('You are Qwen');
  });

  test('a Qwen2.5-style model template with tools', () => {
    const prompt = renderChatTemplate(conversation, { template: qwen25Template, tools: [weather] });
    expect(prompt.startsWith('<|im_start|>system\nAnswer in French.\n\n# Tools')).toBe(true);
    expect(prompt).not.toContain('You are Qwen');
    expect(prompt).toContain('"name": "get_weather"');
  });

  test('a later developer message is a later system turn', () => {
    const prompt = renderChatTemplate(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: 'Now in French.' },
      ],
      { template: qwen25Template },
    );
    expect(prompt).toContain('<|im_start|>system\nBe brief.<|im_end|>\n');
    expect(prompt).toContain('<|im_start|>system\nNow in French.<|im_end|>\n');
  });

  test('a template with a developer role of its own keeps the role', () => {
    expect(hasDeveloperRole(developerRoleTemplate)).toBe(true);
    expect(hasDeveloperRole(chatmlTemplate)).toBe(false);
    expect(hasDeveloperRole(qwen25Template)).toBe(false);
    expect(renderChatTemplate(conversation, { template: developerRoleTemplate })).toBe(
      '<|start|>developer<|message|># Instructions\n\nAnswer in French.<|end|><|start|>user<|message|>Hi<|end|><|start|>assistant',
    );
  });

  test("a GGUF's own template (the llama.cpp worker's renderer)", () => {
    const { prompt } = renderModelChat({ chatTemplate: qwen25Template, addBos: false }, conversation);
    expect(prompt).toBe('<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n');
  });

  test('chat over completions: a Jinja template from config, with and without tools', () => {
    const request: NeutralRequest = { ...emptyRequest('chat', 'm'), messages: conversation };
    expect(toTextRequest(request, { template: qwen25Template }).prompt).toContain('<|im_start|>system\nAnswer in French.<|im_end|>');
    const withTools = toTextRequest({ ...request, tools: [weather] }, { template: qwen25Template }).prompt as string;
    expect(withTools.startsWith('<|im_start|>system\nAnswer in French.\n\n# Tools')).toBe(true);
    expect(toTextRequest(request, {}).prompt).toBe(
      '<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });
});
