import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { readJsonBody } from '../../../src/pipeline/request/read-json-body.js';

/** A request whose body a host's parser (express.text(), express.raw()) already read into `req.body`. */
const parsedByHost = (body: unknown) => ({ _body: true, body, headers: {}, readableEnded: true }) as unknown as IncomingMessage;

describe('readJsonBody: a body a host parser left as text or bytes', () => {
  const json = JSON.stringify({ model: 'm', prompt: 'é'.repeat(40) });

  test('within the limit it is parsed', async () => {
    await expect(readJsonBody(parsedByHost(json), 1024)).resolves.toEqual(JSON.parse(json));
    await expect(readJsonBody(parsedByHost(Buffer.from(json)), 1024)).resolves.toEqual(JSON.parse(json));
  });

  test('past the limit in bytes (not characters) it is a 413, as text and as bytes', async () => {
    const limit = json.length + 10; // enough characters, too few bytes: each é is two
    for (const body of [json, Buffer.from(json)]) {
      await expect(readJsonBody(parsedByHost(body), limit)).rejects.toMatchObject({ status: 413 });
    }
  });
});

describe('readJsonBody: a body read here, chunk by chunk', () => {
  /** A request whose body arrives in `chunks`, as the socket gives them. */
  const arriving = (chunks: Buffer[]) => {
    const request = Readable.from(chunks, { objectMode: false }) as unknown as IncomingMessage;
    Object.assign(request, { headers: {} });
    return request;
  };

  test('a character cut between two chunks, or between every byte, is read whole', async () => {
    const value = { model: 'm', prompt: 'é→😀 done' };
    const bytes = Buffer.from(JSON.stringify(value));
    const cut = bytes.indexOf(Buffer.from('→')) + 1; // inside the arrow's three bytes
    await expect(readJsonBody(arriving([bytes.subarray(0, cut), bytes.subarray(cut)]), 1024)).resolves.toEqual(value);
    const eachByte = [...bytes].map((byte) => Buffer.from([byte]));
    await expect(readJsonBody(arriving(eachByte), 1024)).resolves.toEqual(value);
  });

  test('invalid UTF-8 reads as the whole body decoded would: a replacement character', async () => {
    const bytes = Buffer.concat([Buffer.from('{"prompt":"a'), Buffer.from([0xe2, 0x86]), Buffer.from('b"}')]);
    await expect(readJsonBody(arriving([bytes.subarray(0, 13), bytes.subarray(13)]), 1024)).resolves.toEqual({ prompt: 'a\ufffdb' });
  });
});
