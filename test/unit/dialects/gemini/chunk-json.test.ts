/** The fast Gemini chunk JSON is JSON.stringify's, byte for byte, for every chunk shape a stream makes. */
import { chunkJson } from '../../../../src/dialects/gemini/chunk-json.js';

const tail = { modelVersion: 'gemini-test', responseId: 'resp-1' };
const text = (value: unknown, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts: [{ text: value, ...extra }], role: 'model' }, index: 0 }],
  ...tail,
});

describe('chunkJson', () => {
  test.each([
    ['a text part', text(' word')],
    ['text to escape', text('"quoted" \\ \n\u2028 \u0000 é 😀')],
    ['a thought part', text('hmm', { thought: true })],
    ['thought: false is not the fast path', text('hmm', { thought: false })],
    ['a text that is not a string', text(42)],
    ['another index', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, index: 3 }], ...tail }],
    ['usage', { ...text('x'), usageMetadata: { promptTokenCount: 1 } }],
    ['a finish reason', { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: 'STOP', index: 0 }], ...tail }],
    ['two parts', { candidates: [{ content: { parts: [{ text: 'a' }, { text: 'b' }], role: 'model' }, index: 0 }], ...tail }],
    [
      'a function call',
      { candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: {} } }], role: 'model' }, index: 0 }], ...tail },
    ],
    ['an error', { error: { code: 500, message: 'x', status: 'INTERNAL' } }],
    ['another stream', { ...text('x'), modelVersion: 'other', responseId: 'resp-2' }],
  ])('%s', (_name, chunk) => {
    expect(chunkJson(chunk)).toBe(JSON.stringify(chunk));
    // Twice: the second from the kept tail.
    expect(chunkJson(chunk)).toBe(JSON.stringify(chunk));
  });
});
