import type { IncomingMessage } from 'node:http';
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
