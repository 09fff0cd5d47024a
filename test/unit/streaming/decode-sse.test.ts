import fc from 'fast-check';
import { SseDecoder, type SseMessage } from '../../../src/streaming/decode-sse.js';

const encoder = new TextEncoder();

async function* chunks(...pieces: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield typeof piece === 'string' ? encoder.encode(piece) : piece;
}

/** Each packet's messages, then the end's. */
async function batches(body: AsyncIterable<Uint8Array>): Promise<(readonly SseMessage[])[]> {
  const decoder = new SseDecoder();
  const out: (readonly SseMessage[])[] = [];
  for await (const bytes of body) out.push(decoder.push(bytes));
  out.push(decoder.finish());
  return out.filter((messages) => messages.length > 0);
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<SseMessage[]> {
  return (await batches(body)).flat();
}

/** Cuts `bytes` at the given offsets. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    parts.push(bytes.slice(from, point));
    from = point;
  }
  return parts;
}

describe('SseDecoder', () => {
  test('yields each data message and stops at [DONE]', async () => {
    const body = chunks('data: {"a":1}\n\n', 'data: {"a":2}\n\ndata: [DONE]\n\n', 'data: {"after":true}\n\n');
    expect(await collect(body)).toEqual([{ data: '{"a":1}' }, { data: '{"a":2}' }]);
  });

  test('the messages of one packet come together; one split across packets comes with the packet that completes it', async () => {
    expect(await batches(chunks('data: 1\n\ndata: 2\n\ndata: ', '3\n', '\ndata: 4\n\n'))).toEqual([
      [{ data: '1' }, { data: '2' }],
      [{ data: '3' }, { data: '4' }],
    ]);
  });

  test('keeps the event name when the server sends one', async () => {
    expect(await collect(chunks('event: error\ndata: {"error":{"message":"x"}}\n\n'))).toEqual([
      { data: '{"error":{"message":"x"}}', event: 'error' },
    ]);
  });

  test('CRLF line ends, comments and multi-line data (joined with \\n)', async () => {
    const body = chunks(': keep-alive\r\n\r\ndata: line one\r\ndata: line two\r\n\r\n');
    expect(await collect(body)).toEqual([{ data: 'line one\nline two' }]);
  });

  test('a last message without its blank line still counts when the body ends', async () => {
    expect(await collect(chunks('data: {"a":1}\n\ndata: {"a":2}'))).toEqual([{ data: '{"a":1}' }, { data: '{"a":2}' }]);
  });

  test('a UTF-8 character split across chunks', async () => {
    const bytes = encoder.encode('data: {"t":"é😀"}\n\n');
    const parts = [bytes.slice(0, 13), bytes.slice(13, 17), bytes.slice(17)];
    expect(await collect(chunks(...parts))).toEqual([{ data: '{"t":"é😀"}' }]);
  });

  test('a byte order mark that opens the stream is dropped, even split across packets (SSE: the stream may begin with one)', async () => {
    const bytes = encoder.encode('\uFEFFdata: 1\n\ndata: \uFEFF2\n\n');
    expect(await collect(chunks(bytes))).toEqual([{ data: '1' }, { data: '\uFEFF2' }]);
    expect(await collect(chunks(bytes.slice(0, 2), bytes.slice(2)))).toEqual([{ data: '1' }, { data: '\uFEFF2' }]);
  });

  test('says when [DONE] was read (the remote adapter then reads the body to its end, so the connection is reused)', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(encoder.encode('data: 1\n\ndata: [DONE]\n\ndata: 2\n\n'))).toEqual([{ data: '1' }]);
    expect(decoder.done).toBe(true);
    expect(decoder.push(encoder.encode('data: 3\n\n'))).toEqual([]);
    expect(decoder.finish()).toEqual([]);
  });

  test('the same messages however the bytes are split', async () => {
    const transcript =
      'data: {"choices":[{"delta":{"content":"Ünï"}}]}\r\n\r\nevent: message\ndata: {"x":"😀"}\n\n: comment\n\ndata: b\ndata: c\n\ndata: [DONE]\n\n';
    const bytes = encoder.encode(transcript);
    const expected = await collect(chunks(bytes));
    expect(expected).toEqual([
      { data: '{"choices":[{"delta":{"content":"Ünï"}}]}' },
      { data: '{"x":"😀"}', event: 'message' },
      { data: 'b\nc' },
    ]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 40 }), async (offsets) => {
        expect(await collect(chunks(...cut(bytes, offsets)))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
