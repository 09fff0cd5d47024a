import fc from 'fast-check';
import type { StreamBatches, StreamEvent } from '../../../src/model/stream-event.js';
import { coalesceEvents, mergeDeltas } from '../../../src/streaming/coalesce-events.js';
import { eachEvent } from '../../../src/streaming/stream-batches.js';

async function collect(batches: StreamBatches): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of eachEvent(batches)) out.push(event);
  return out;
}

/** The events in batches of `sizes` (cycled; one each by default), as an upstream's packets would bring them. */
async function* from(events: StreamEvent[], sizes: number[] = [1]): StreamBatches {
  for (let at = 0, i = 0; at < events.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]);
    yield events.slice(at, at + size);
    at += size;
  }
}

/** What a stream amounts to: the text, reasoning and token ids of each choice, and every non-delta event in order. */
function assemble(events: StreamEvent[]) {
  const text = new Map<number, string>();
  const ids = new Map<number, number[]>();
  const others: StreamEvent[] = [];
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      const key = event.choice * 2 + (event.type === 'text-delta' ? 0 : 1);
      text.set(key, (text.get(key) ?? '') + event.delta);
      ids.set(key, [...(ids.get(key) ?? []), ...(event.tokenIds ?? [])]);
    } else others.push(event);
  }
  return { text: [...text.entries()].sort(), ids: [...ids.entries()].sort(), others };
}

const delta = (choice: number, text: string, id: number): StreamEvent => ({ type: 'text-delta', choice, delta: text, tokenIds: [id] });

describe('coalesceEvents', () => {
  test('merges every buffer_tokens deltas of a choice into one chunk', async () => {
    const events = [
      delta(0, 'a', 1),
      delta(0, 'b', 2),
      delta(0, 'c', 3),
      { type: 'choice-end', choice: 0, finishReason: 'stop' } as StreamEvent,
    ];
    expect(await collect(coalesceEvents(from(events), { tokens: 2, mode: 'any' }))).toEqual([
      { type: 'text-delta', choice: 0, delta: 'ab', tokenIds: [1, 2] },
      { type: 'text-delta', choice: 0, delta: 'c', tokenIds: [3] },
      { type: 'choice-end', choice: 0, finishReason: 'stop' },
    ]);
  });

  test('never holds back the final chunk', async () => {
    const out = await collect(coalesceEvents(from([delta(0, 'x', 1)]), { tokens: 100, mode: 'any' }));
    expect(out).toEqual([{ type: 'text-delta', choice: 0, delta: 'x', tokenIds: [1] }]);
  });

  test('buffer_ms flushes on time even when the upstream is silent', async () => {
    let releaseB: () => void = () => undefined;
    const bReleased = new Promise<void>((resolve) => {
      releaseB = resolve;
    });
    let bSent = false;
    async function* slow(): StreamBatches {
      yield [delta(0, 'a', 1)];
      await bReleased;
      bSent = true;
      yield [delta(0, 'b', 2)];
    }
    const iterator = coalesceEvents(slow(), { ms: 30, mode: 'any' })[Symbol.asyncIterator]();
    const safety = setTimeout(releaseB, 5000); // only if the timer never fired: the test then fails below
    const first = await iterator.next();
    expect(bSent).toBe(false); // 'a' went out on the timer, not with 'b'
    expect(first.value).toMatchObject([{ delta: 'a' }]);
    releaseB();
    clearTimeout(safety);
    expect((await iterator.next()).value).toMatchObject([{ delta: 'b' }]);
  });

  test("mode 'all' waits for both thresholds", async () => {
    const now = (() => {
      let t = 0;
      return () => (t += 1);
    })(); // 1 ms per call: the time threshold is never reached
    const events = [delta(0, 'a', 1), delta(0, 'b', 2), delta(0, 'c', 3)];
    const out = await collect(coalesceEvents(from(events), { tokens: 2, ms: 1000, mode: 'all' }, now));
    expect(out).toEqual([{ type: 'text-delta', choice: 0, delta: 'abc', tokenIds: [1, 2, 3] }]);
  });

  test('interleaved choices are merged per choice', () => {
    expect(
      mergeDeltas([
        { type: 'text-delta', choice: 0, delta: 'a' },
        { type: 'text-delta', choice: 1, delta: 'x' },
        { type: 'text-delta', choice: 0, delta: 'b' },
      ]),
    ).toEqual([
      { type: 'text-delta', choice: 0, delta: 'ab' },
      { type: 'text-delta', choice: 1, delta: 'x' },
    ]);
  });

  test('the deltas of one batch (one upstream packet) are merged too', async () => {
    const events = [
      delta(0, 'a', 1),
      delta(0, 'b', 2),
      delta(0, 'c', 3),
      { type: 'choice-end', choice: 0, finishReason: 'stop' } as StreamEvent,
    ];
    const batches: StreamEvent[][] = [];
    for await (const batch of coalesceEvents(from(events, [4]), { tokens: 2, mode: 'any' })) batches.push(batch);
    expect(batches).toEqual([
      [
        { type: 'text-delta', choice: 0, delta: 'ab', tokenIds: [1, 2] },
        { type: 'text-delta', choice: 0, delta: 'c', tokenIds: [3] },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ],
    ]);
  });

  test('property: a coalesced stream assembles to exactly the unbuffered result, however it is batched', async () => {
    const event = fc.oneof(
      fc.record({
        type: fc.constant('text-delta' as const),
        choice: fc.integer({ min: 0, max: 2 }),
        delta: fc.string(),
        tokenIds: fc.array(fc.nat(), { maxLength: 2 }),
      }),
      fc.record({ type: fc.constant('reasoning-delta' as const), choice: fc.integer({ min: 0, max: 2 }), delta: fc.string() }),
      fc.record({
        type: fc.constant('choice-end' as const),
        choice: fc.integer({ min: 0, max: 2 }),
        finishReason: fc.constant('stop' as const),
      }),
    );
    const sizes = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 40 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('any' as const, 'all' as const),
        sizes,
        async (events, tokens, mode, batching) => {
          const plain = assemble(events as StreamEvent[]);
          const merged = assemble(await collect(coalesceEvents(from(events as StreamEvent[], batching), { tokens, ms: 0, mode })));
          expect(merged).toEqual(plain);
        },
      ),
    );
  });
});
