/**
 * encodeMessagesEventFrame writes exactly what encodeSseEvent writes: for the deltas it frames
 * fast (any text, any index) and for near misses (keys added, removed or reordered, values of
 * other types, other delta types and other events).
 */
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { encodeMessagesEventFrame } from '../../../src/dialects/anthropic-messages/event-frame.js';
import { encodeSseEvent } from '../../../src/streaming/encode-sse.js';

type Chunk = Record<string, unknown>;

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '😀', 'é', '{', '}') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
);
const text = fc.string({ unit, maxLength: 12 });
const index = fc.oneof(fc.nat(), fc.integer(), fc.constantFrom(2 ** 53, 1e21, -0, 0.5, NaN));
const deltaType = fc.constantFrom('text_delta', 'thinking_delta', 'input_json_delta', 'signature_delta', 'citations_delta', 'other');
const keyOf: Record<string, string> = {
  text_delta: 'text',
  thinking_delta: 'thinking',
  input_json_delta: 'partial_json',
  signature_delta: 'signature',
};

/** Built as the Messages stream serializer builds a delta. */
const hot = fc.record({ index, type: deltaType, value: text }).map(({ index: at, type, value }): Chunk => ({
  type: 'content_block_delta',
  index: at,
  delta: { type, [keyOf[type] ?? 'text']: value },
}));

const odd = fc.oneof(fc.jsonValue({ maxDepth: 2 }), text, fc.constantFrom<unknown>(undefined, null, 1, true, [], { text: 'x' }));
const nearMiss = fc
  .tuple(hot, fc.constantFrom('add', 'remove', 'reorder', 'set', 'deltaAdd', 'deltaSet', 'type'), text, odd)
  .map(([chunk, how, key, value]): Chunk => {
    const delta = { ...(chunk.delta as Chunk) };
    switch (how) {
      case 'add':
        return { ...chunk, [key || 'extra']: value };
      case 'remove':
        return { type: chunk.type, delta };
      case 'reorder':
        return { index: chunk.index, type: chunk.type, delta };
      case 'set':
        return { ...chunk, index: value };
      case 'deltaAdd':
        return { ...chunk, delta: { ...delta, [key || 'extra']: value } };
      case 'deltaSet':
        return { ...chunk, delta: { ...delta, [Object.keys(delta)[1]]: value } };
      default:
        return { ...chunk, type: typeof value === 'string' ? value : 'message_delta' };
    }
  });

describe('encodeMessagesEventFrame', () => {
  test('the deltas streamed most: the same bytes as encodeSseEvent', () => {
    fc.assert(
      fc.property(hot, (chunk) => expect(encodeMessagesEventFrame(chunk)).toBe(encodeSseEvent(chunk))),
      { numRuns: 2000 },
    );
  });

  test('near misses and other events: the same bytes as encodeSseEvent', () => {
    fc.assert(
      fc.property(nearMiss, (chunk) => {
        let expected: string;
        try {
          expected = encodeSseEvent(chunk);
        } catch {
          return; // not JSON: neither writes it
        }
        expect(encodeMessagesEventFrame(chunk)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    for (const chunk of [{ type: 'ping' }, { type: 'message_stop' }, { type: 'content_block_stop', index: 0 }])
      expect(encodeMessagesEventFrame(chunk)).toBe(encodeSseEvent(chunk));
  });
});
