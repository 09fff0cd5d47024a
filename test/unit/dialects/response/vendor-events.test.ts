/**
 * A vendor's own stream event (src/model/vendor-data.ts) reaches only the serializers that name its vendor:
 * pushEvent is the one place the others skip it, so a new vendor's event changes no other dialect.
 */
import { describe, expect, test } from '@jest/globals';
import { DIALECTS } from '../../../../src/dialects/registry.js';
import { pushEvent, serializeEvents, type AnyStreamSerializer } from '../../../../src/dialects/stream-serializer.js';
import type { StreamEvent } from '../../../../src/model/stream-event.js';
import type { VendorName } from '../../../../src/model/vendor-data.js';
import { CallerStream } from '../../../../src/pipeline/answer/caller-stream.js';
import { RequestMeter } from '../../../../src/pipeline/answer/request-meter.js';
import { collect, request, source, start } from './helpers.js';

const redacted: StreamEvent = { type: 'vendor', choice: 0, vendor: 'anthropic', data: { redactedReasoning: 'EnC0dEd' } };
/** An event of a vendor no serializer knows: what a new vendor's event is to every dialect written before it. */
const unknown = { type: 'vendor', choice: 0, vendor: 'acme' as VendorName, data: { redactedReasoning: 'x' } } as StreamEvent;

const events = (...extra: StreamEvent[]): StreamEvent[] => [
  start,
  { type: 'text-delta', choice: 0, delta: 'Hi' },
  ...extra,
  { type: 'text-delta', choice: 0, delta: '!' },
  { type: 'choice-end', choice: 0, finishReason: 'stop' },
  { type: 'usage', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
];

/** A serializer that keeps what reaches its `push`. */
function recording(vendors?: readonly VendorName[]): AnyStreamSerializer & { seen: StreamEvent[] } {
  const seen: StreamEvent[] = [];
  return { ...(vendors ? { vendors } : {}), seen, ended: false, push: (event) => void seen.push(event), finish: () => {} };
}

describe('pushEvent', () => {
  test('a serializer that names no vendor never sees a vendor event; one that names it sees only its own', () => {
    const none = recording();
    const anthropic = recording(['anthropic']);
    for (const event of events(redacted, unknown)) {
      pushEvent(none, event, []);
      pushEvent(anthropic, event, []);
    }
    expect(none.seen).toEqual(events());
    expect(anthropic.seen).toEqual(events(redacted));
  });

  test.each(DIALECTS.map((dialect) => [dialect.name, dialect] as const))(
    "%s: an unknown vendor's event never reaches push, Anthropic's only where the serializer names it",
    async (_name, dialect) => {
      const serializer = dialect.streamSerializer(request(dialect.endpoint, { stream: { includeUsage: true, tokenIds: false } }));
      const seen: StreamEvent[] = [];
      const push = serializer.push.bind(serializer);
      serializer.push = (event, out) => {
        seen.push(event);
        push(event, out);
      };
      await collect(serializeEvents(serializer, source(events(redacted, unknown))));
      expect(seen).toEqual(serializer.vendors?.includes('anthropic') ? events(redacted) : events());
    },
  );
});

describe('the streams of dialects without the vendor are as if its event were not there', () => {
  test.each(['openai-chat', 'fireworks-completions'])('%s', async (name) => {
    const dialect = DIALECTS.find((candidate) => candidate.name === name);
    if (!dialect) throw new Error(`no dialect ${name}`);
    const run = (list: StreamEvent[]) =>
      collect(serializeEvents(dialect.streamSerializer(request(dialect.endpoint, { prompt: 'p' })), source(list)));
    expect(await run(events(redacted, unknown))).toEqual(await run(events()));
  });

  test('the caller stream (the pipeline) pushes through pushEvent', () => {
    const dialect = DIALECTS.find((candidate) => candidate.name === 'openai-chat');
    if (!dialect) throw new Error('no chat dialect');
    const write = (list: StreamEvent[]) => {
      const stream = new CallerStream(dialect.streamSerializer(request('chat')), { meter: new RequestMeter(), perfMetricsInBody: false });
      const out: Record<string, unknown>[] = [];
      for (const event of list) stream.push(event, out);
      stream.finish(out);
      return out;
    };
    expect(write(events(redacted, unknown))).toEqual(write(events()));
  });
});

test("the Messages stream writes Anthropic's redacted reasoning as a whole redacted_thinking block", async () => {
  const dialect = DIALECTS.find((candidate) => candidate.name === 'anthropic-messages');
  if (!dialect) throw new Error('no Messages dialect');
  const chunks = await collect(serializeEvents(dialect.streamSerializer(request('chat')), source(events(redacted))));
  expect(chunks).toContainEqual({ type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EnC0dEd' } });
});
