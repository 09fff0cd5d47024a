import fc from 'fast-check';
import { ReasoningSplitter, splitReasoning } from '../../../src/pipeline/plan/emulate/split-reasoning.js';

describe('splitReasoning', () => {
  test('splits think tags out of the text', () => {
    expect(splitReasoning('<think>plan it</think>The answer.')).toEqual({ reasoning: 'plan it', text: 'The answer.' });
    expect(splitReasoning('No thoughts.')).toEqual({ reasoning: '', text: 'No thoughts.' });
    expect(splitReasoning('<think>unfinished')).toEqual({ reasoning: 'unfinished', text: '' });
  });

  test('property: a text without the open tag comes back whole, as the splitter gives it', () => {
    const piece = fc.oneof(fc.constant('</think>'), fc.constant('<thin'), fc.constant('<'), fc.constant('think>'), fc.string());
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join('');
        fc.pre(!text.includes('<think>'));
        const splitter = new ReasoningSplitter();
        const whole = [...splitter.push(text), ...splitter.finish()];
        expect(splitReasoning(text)).toEqual({ reasoning: '', text });
        expect(whole.filter((part) => part.kind === 'reasoning')).toEqual([]);
        expect(whole.map((part) => part.text).join('')).toBe(text);
      }),
    );
  });

  test('custom tags', () => {
    expect(splitReasoning('[[a]]b', { open: '[[', close: ']]' })).toEqual({ reasoning: 'a', text: 'b' });
  });

  test('a tag cut across chunks is recognised', () => {
    const splitter = new ReasoningSplitter();
    const pieces = [...splitter.push('<thi'), ...splitter.push('nk>abc</th'), ...splitter.push('ink>def'), ...splitter.finish()];
    expect(pieces).toEqual([
      { kind: 'reasoning', text: 'abc' },
      { kind: 'text', text: 'def' },
    ]);
  });

  test('property: a chunk said to pass through is what push returns, as one text piece', () => {
    const piece = fc.oneof(
      fc.constant('<think>'),
      fc.constant('</think>'),
      fc.constant('<'),
      fc.constant('</th'),
      fc.constant('think>'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 3 }).map((parts) => parts.join('')),
          { maxLength: 16 },
        ),
        (chunks) => {
          const splitter = new ReasoningSplitter();
          for (const chunk of chunks) {
            const passes = splitter.passesThrough(chunk);
            const pieces = splitter.push(chunk);
            if (passes) expect(pieces).toEqual([{ kind: 'text', text: chunk }]);
          }
        },
      ),
    );
    // And it does say so for the usual chunk.
    const splitter = new ReasoningSplitter();
    expect(splitter.passesThrough('Once upon')).toBe(true);
    splitter.push('<think>');
    expect(splitter.passesThrough('hmm')).toBe(false);
  });

  test('property: splitting over arbitrary chunk boundaries equals splitting the whole text', () => {
    const piece = fc.oneof(
      fc.constant('<think>'),
      fc.constant('</think>'),
      fc.constant('<'),
      fc.constant('</th'),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const text = parts.join('');
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
        const splitter = new ReasoningSplitter();
        const pieces = [...chunks.flatMap((chunk) => splitter.push(chunk)), ...splitter.finish()];
        const joined = {
          reasoning: pieces
            .filter((p) => p.kind === 'reasoning')
            .map((p) => p.text)
            .join(''),
          text: pieces
            .filter((p) => p.kind === 'text')
            .map((p) => p.text)
            .join(''),
        };
        expect(joined).toEqual(splitReasoning(text));
      }),
    );
  });
});
