/** The Responses frames that splice the tools in are the frames JSON.stringify writes, byte for byte. */
import { responsesEventFrame } from '../../../src/dialects/openai-responses/event-frame.js';
import { encodeSseEvent } from '../../../src/streaming/encode-sse.js';

const tools = [
  {
    type: 'function',
    name: 'shell',
    parameters: { type: 'object', properties: { cmd: { type: 'string', description: 'a "quoted" \\ line\n' } } },
    strict: null,
  },
  { type: 'web_search' },
];

describe('responsesEventFrame', () => {
  test.each([
    ['response.created', { id: 'resp_1', tools, output: [], instructions: 'the word "tools": is just text' }],
    [
      'response.completed',
      { id: 'resp_1', tools, output: [{ type: 'message', content: [{ text: '"tools":"x"' }] }], metadata: { tools: 'mine' } },
    ],
    ['response.in_progress', { id: 'resp_1', tools: [], output: [] }],
  ])('%s: as encodeSseEvent writes it', (type, response) => {
    const chunk = { type, response, sequence_number: 0 };
    expect(responsesEventFrame(chunk)).toBe(encodeSseEvent(chunk));
  });

  test('events without a response, and the same tools in a later frame', () => {
    const delta = { type: 'response.output_text.delta', delta: 'hi', sequence_number: 3 };
    expect(responsesEventFrame(delta)).toBe(encodeSseEvent(delta));
    const first = { type: 'response.created', response: { tools }, sequence_number: 0 };
    const last = { type: 'response.completed', response: { tools, usage: null }, sequence_number: 9 };
    expect([responsesEventFrame(first), responsesEventFrame(last)]).toEqual([encodeSseEvent(first), encodeSseEvent(last)]);
  });
});
