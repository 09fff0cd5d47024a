import { renderChatTemplate } from '../../../src/model/render-chat-template.js';
import { parseToolCalls } from '../../../src/pipeline/plan/emulate/parse-tool-calls.js';

describe('renderChatTemplate', () => {
  test('ChatML by default, as llama.cpp renders it', () => {
    // Same text as ../shared/captures/llama-server/chat_apply_template.response.json
    expect(
      renderChatTemplate([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi there' },
      ]),
    ).toBe('<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi there<|im_end|>\n<|im_start|>assistant\n');
  });

  test('tools, tool calls and tool results are rendered Hermes-style', () => {
    const prompt = renderChatTemplate(
      [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
        { role: 'tool', content: '{"celsius":21}', toolCallId: 'c1' },
      ],
      { tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] },
    );
    expect(prompt).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
    expect(prompt).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>',
    );
    expect(prompt).toContain('<|im_start|>user\n<tool_response>\n{"celsius":21}\n</tool_response><|im_end|>');
    expect(prompt.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  test('a Jinja template from config gets bos_token and the messages', () => {
    const template =
      '{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}[assistant] {% endif %}';
    expect(
      renderChatTemplate(
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
        { template, bosToken: '<s>' },
      ),
    ).toBe('<s>[user] ab\n[assistant] ');
  });

  test('an image part cannot go into a text prompt: a 400 naming the part', () => {
    expect(() => renderChatTemplate([{ role: 'user', content: [{ type: 'image', url: 'data:image/png;base64,AA' }] }])).toThrow(
      expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }),
    );
  });
});

describe('parseToolCalls', () => {
  test('hermes', () => {
    const parsed = parseToolCalls('Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
    expect(parsed.text).toBe('Let me check.');
    expect(parsed.calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  test('llama3 JSON', () => {
    const parsed = parseToolCalls('{"name": "f", "parameters": {"x": 1}}', 'llama3-json');
    expect(parsed).toEqual({ text: '', calls: [{ id: expect.any(String), name: 'f', arguments: '{"x":1}' }] });
  });

  test('text without calls, or with broken JSON, is left alone', () => {
    expect(parseToolCalls('plain')).toEqual({ text: 'plain', calls: [] });
    expect(parseToolCalls('<tool_call>{oops</tool_call>')).toEqual({ text: '<tool_call>{oops</tool_call>', calls: [] });
  });
});

describe('reasoning-aware templates', () => {
  test('enable_thinking and reasoning_effort reach the template', async () => {
    const { toTextRequest } = await import('../../../src/pipeline/plan/emulate/chat-over-text.js');
    const { emptyRequest } = await import('../../../src/model/request.js');
    const template = '{% for m in messages %}{{ m.content }}{% endfor %}|{{ enable_thinking }}|{{ reasoning_effort }}';
    const request = { ...emptyRequest('chat', 'm'), messages: [{ role: 'user' as const, content: 'q' }] };
    expect(toTextRequest({ ...request, reasoning: { effort: 'none' } }, { template }).prompt).toBe('q|false|none');
    expect(toTextRequest({ ...request, reasoning: { effort: 'high' } }, { template }).prompt).toBe('q|true|high');
  });
});
