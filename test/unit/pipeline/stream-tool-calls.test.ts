import fc from 'fast-check';
import { parseToolCalls } from '../../../src/pipeline/plan/emulate/parse-tool-calls.js';
import { ToolCallStream, type ToolStreamPiece } from '../../../src/pipeline/plan/emulate/stream-tool-calls.js';

/** Text and calls (ids aside) of a whole stream. */
function run(chunks: string[]): { text: string; calls: { name: string; arguments: string }[] } {
  const stream = new ToolCallStream();
  const pieces: ToolStreamPiece[] = [...chunks.flatMap((chunk) => stream.push(chunk)), ...stream.finish()];
  return {
    text: pieces.map((piece) => (piece.kind === 'text' ? piece.text : '')).join(''),
    calls: pieces.flatMap((piece) => (piece.kind === 'call' ? [{ name: piece.call.name, arguments: piece.call.arguments }] : [])),
  };
}

describe('ToolCallStream', () => {
  test('text streams on, and a call comes out whole as soon as its closing tag arrives', () => {
    const stream = new ToolCallStream();
    expect(stream.push('Let me check.')).toEqual([{ kind: 'text', text: 'Let me check.' }]);
    expect(stream.push('\n<tool_ca')).toEqual([]);
    expect(stream.push('ll>{"name": "get_weather", "argu')).toEqual([]);
    expect(stream.push('ments": {"city": "Paris"}}</tool_call>')).toEqual([
      { kind: 'call', call: { id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(stream.finish()).toEqual([]);
  });

  test('a broken or unclosed call is passed on as text, never lost', () => {
    expect(run(['<tool_call>{oops</tool_call> and more'])).toEqual({ text: '<tool_call>{oops</tool_call> and more', calls: [] });
    expect(run(['before <tool_call>{"name": "f"'])).toEqual({ text: 'before <tool_call>{"name": "f"', calls: [] });
  });

  test('property: over any chunk boundaries, the calls are those the whole-text parser finds', () => {
    const piece = fc.oneof(
      fc.constant('<tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call>'),
      fc.constant('<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>'),
      fc.constant('\n'),
      fc.constantFrom('Sure. ', 'done', '<', '</tool', 'x'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join('');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [...points, text.length].map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
        const whole = parseToolCalls(text);
        const streamed = run(chunks);
        expect(streamed.calls).toEqual(whole.calls.map(({ name, arguments: args }) => ({ name, arguments: args })));
        // The whole-text parser trims its text; a stream cannot take back leading whitespace it already sent.
        if (whole.calls.length > 0) expect(streamed.text.trim()).toBe(whole.text);
        else expect(streamed.text).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
