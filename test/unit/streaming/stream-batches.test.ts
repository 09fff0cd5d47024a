import type { AdapterContext } from '../../../src/backend/adapter.js';
import { emptyRequest, type NeutralRequest } from '../../../src/model/request.js';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { chatOverText } from '../../../src/pipeline/plan/emulate/chat-over-text.js';
import type { Engine } from '../../../src/pipeline/plan/emulate/engine.js';
import { eachEvent, mapEvents } from '../../../src/streaming/stream-batches.js';

const context: AdapterContext = { signal: new AbortController().signal, requestId: 'req-1' };

describe('mapEvents', () => {
  test('maps each batch in one step, drops batches left empty, and opens its source only when pulled', async () => {
    let opened = false;
    async function* source() {
      opened = true;
      yield [
        { type: 'text-delta', choice: 0, delta: 'a' },
        { type: 'text-delta', choice: 0, delta: '' },
      ] as StreamEvent[];
      yield [{ type: 'text-delta', choice: 0, delta: '' }] as StreamEvent[];
      yield [{ type: 'choice-end', choice: 0, finishReason: 'stop' }] as StreamEvent[];
    }
    const mapped = mapEvents(source, (event, out) => {
      if (event.type !== 'text-delta' || event.delta !== '') out.push(event);
    });
    expect(opened).toBe(false);
    const batches: StreamEvent[][] = [];
    for await (const batch of mapped) batches.push(batch);
    expect(batches).toEqual([[{ type: 'text-delta', choice: 0, delta: 'a' }], [{ type: 'choice-end', choice: 0, finishReason: 'stop' }]]);
  });

  test("an emulation's stream does no work until pulled: a chat template that fails to render fails the first pull, not the call", async () => {
    const inner: Engine = {
      complete: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield [{ type: 'choice-end', choice: 0, finishReason: 'stop' }];
      },
    };
    const engine = chatOverText(inner, { template: '{% if %}' });
    const request: NeutralRequest = { ...emptyRequest('chat'), messages: [{ role: 'user', content: 'Hi' }] };
    const stream = engine.stream(request, context);
    await expect(eachEvent(stream).next()).rejects.toThrow();
  });
});
