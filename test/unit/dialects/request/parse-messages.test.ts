/** dialects/openai-chat/parse-messages.ts: every role and content-part type, small wire messages in -> exact neutral messages out. */
import { parseMessages } from '../../../../src/dialects/openai-chat/parse-messages.js';
import { paramOf } from './expect-param.js';

describe('parseMessages', () => {
  it.each([
    ['system with name', { role: 'system', content: 'Be brief.', name: 'ops' }, { role: 'system', content: 'Be brief.', name: 'ops' }],
    [
      'developer text parts',
      { role: 'developer', content: [{ type: 'text', text: 'Rules' }] },
      { role: 'developer', content: [{ type: 'text', text: 'Rules' }] },
    ],
    [
      'user image with detail',
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/cat.png', detail: 'low' } }] },
      { role: 'user', content: [{ type: 'image', url: 'https://x/cat.png', detail: 'low' }] },
    ],
    [
      'user audio',
      { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } }] },
      { role: 'user', content: [{ type: 'audio', data: 'UklG', format: 'wav' }] },
    ],
    [
      'user file',
      { role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] },
      { role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] },
    ],
    [
      'Fireworks video, extra knobs kept',
      { role: 'user', content: [{ type: 'video_url', video_url: { url: 'mm_file://v1', max_frames: 8 }, text: null, image_url: null }] },
      { role: 'user', content: [{ type: 'video', url: 'mm_file://v1', extra: { video_url: { max_frames: 8 } } }] },
    ],
    [
      'part-level keys kept in extra',
      { role: 'user', content: [{ type: 'text', text: 'Hi', prompt_cache_breakpoint: { mode: 'explicit' } }] },
      { role: 'user', content: [{ type: 'text', text: 'Hi', extra: { prompt_cache_breakpoint: { mode: 'explicit' } } }] },
    ],
    [
      'assistant refusal part and message-level refusal/audio in extra',
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }], refusal: 'No.', audio: { id: 'audio_1' } },
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }], extra: { refusal: 'No.', audio: { id: 'audio_1' } } },
    ],
    [
      'assistant tool calls and reasoning, content absent',
      {
        role: 'assistant',
        reasoning_content: 'Think.',
        tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{}' }, index: 0 }],
      },
      { role: 'assistant', content: null, reasoning: 'Think.', toolCalls: [{ id: 'call_a', name: 'f', arguments: '{}' }] },
    ],
    [
      'Fireworks tool call without id, function as JSON text',
      { role: 'assistant', content: null, tool_calls: [{ function: '{"name": "f", "arguments": "{\\"x\\":1}"}' }] },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_0_0', name: 'f', arguments: '{"x":1}' }] },
    ],
    ['tool message', { role: 'tool', content: 'sunny', tool_call_id: 'call_a' }, { role: 'tool', content: 'sunny', toolCallId: 'call_a' }],
    ['unknown message field kept', { role: 'user', content: 'Hi', weight: 0 }, { role: 'user', content: 'Hi', extra: { weight: 0 } }],
  ])('%s', (_name, wire, expected) => {
    expect(parseMessages([wire])).toEqual([expected]);
  });

  it('legacy function_call gets a stable id that the function answer points to', () => {
    const wire = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, function_call: { name: 'weather', arguments: '{"city":"Oslo"}' } },
      { role: 'function', name: 'weather', content: 'cold' },
    ];
    expect(parseMessages(wire)).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }] },
      { role: 'function', name: 'weather', content: 'cold', toolCallId: 'call_1' },
    ]);
  });

  it('a custom tool call: its input is free text', () => {
    expect(
      parseMessages([
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'sql', input: 'SELECT 1' } }] },
      ]),
    ).toEqual([{ role: 'assistant', content: null, toolCalls: [{ id: 'c', name: 'sql', arguments: 'SELECT 1', custom: true }] }]);
  });

  it.each([
    ['unknown role', [{ role: 'robot', content: 'x' }], 'messages[0].role'],
    ['unknown part type', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'hologram' }] }], 'messages[0].content[1].type'],
    [
      'a tool call of another type',
      [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'mcp', mcp: { name: 'g' } }] }],
      'messages[0].tool_calls[0].type',
    ],
    [
      'a custom tool call without input',
      [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'g' } }] }],
      'messages[0].tool_calls[0].custom.input',
    ],
    [
      'unknown tool call field',
      [{ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'f', arguments: '' }, extra: 1 }] }],
      'messages[0].tool_calls[0].extra',
    ],
    [
      'tool_calls with function_call',
      [{ role: 'assistant', tool_calls: [], function_call: { name: 'f', arguments: '' } }],
      'messages[0].function_call',
    ],
    ['image without url', [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }], 'messages[0].content[0].image_url.url'],
    ['content of the wrong type', [{ role: 'user', content: 7 }], 'messages[0].content'],
    ['bad function JSON', [{ role: 'assistant', tool_calls: [{ function: '{' }] }], 'messages[0].tool_calls[0].function'],
  ])('%s -> 400', (_name, wire, param) => {
    expect(paramOf(() => parseMessages(wire))).toBe(param);
  });
});
