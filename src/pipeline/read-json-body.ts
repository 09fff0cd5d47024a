/**
 * The request body as JSON: taken from a host app's body parser when one ran,
 * otherwise read here with a size limit.
 */
import type { IncomingMessage } from 'node:http';
import { bodyConsumedByHost, requestTooLarge } from '../errors/catalogue.js';
import { invalidRequest } from '../errors/proxy-error.js';

type MaybeParsed = IncomingMessage & { body?: unknown; _body?: boolean };

export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<unknown> {
  const maybeParsed = request as MaybeParsed;
  // A host parser read the stream: the body is what it left in `req.body`.
  // body-parser 1 (Express 4) also marks it with `_body`; body-parser 2
  // (Express 5) and hand-written parsers do not. A stream nobody read is the
  // truth even when `req.body` is set (body-parser 1 sets `{}` for a content
  // type it skipped).
  if (maybeParsed._body === true || request.readableEnded || request.readableDidRead) {
    const { body } = maybeParsed;
    if (body === undefined || body === null) throw bodyConsumedByHost();
    if (typeof body === 'string' || Buffer.isBuffer(body)) return parseJson(body.toString(), limitBytes);
    return body;
  }
  const declared = Number(request.headers['content-length']);
  if (declared > limitBytes) throw requestTooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw requestTooLarge(limitBytes);
    chunks.push(chunk);
  }
  return parseJson(Buffer.concat(chunks).toString('utf8'), limitBytes);
}

/** Text read here, or left in `req.body` by `express.text()` or `express.raw()`, as JSON. */
function parseJson(text: string, limitBytes: number): unknown {
  if (Buffer.byteLength(text) > limitBytes) throw requestTooLarge(limitBytes);
  if (text.trim() === '') throw invalidRequest(null, 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(null, `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
}
