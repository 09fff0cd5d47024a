/**
 * The request body as JSON: taken from a host app's body parser when one ran,
 * otherwise read here with a size limit and a time limit (a body sent a byte a
 * second must not hold a connection for minutes).
 */
import type { IncomingMessage } from 'node:http';
import { bodyConsumedByHost, requestTimeout, requestTooLarge } from '../../errors/catalogue.js';
import type { ProxyConfig } from '../../config/settings.js';
import { clientClosedRequest, invalidRequest } from '../../errors/proxy-error.js';
import { checkJsonDepth } from './json-depth.js';

type MaybeParsed = IncomingMessage & { body?: unknown; _body?: boolean };

/** A caller's body within the server's size and time limits, its depth checked before anything walks it (the proxy's walkers recurse). */
export async function readCallerBody(
  request: IncomingMessage,
  { server, limits }: Pick<ProxyConfig, 'server' | 'limits'>,
): Promise<unknown> {
  const body = await readJsonBody(request, server.maxBodyBytes, server.requestTimeoutMs);
  checkJsonDepth(body, limits.jsonDepth);
  return body;
}

export async function readJsonBody(request: IncomingMessage, limitBytes: number, timeoutMs = 60_000): Promise<unknown> {
  const maybeParsed = request as MaybeParsed;
  // A host parser read the stream: the body is what it left in `req.body`.
  // body-parser 1 (Express 4) also marks it with `_body`; body-parser 2
  // (Express 5) and hand-written parsers do not. A stream nobody read is the
  // truth even when `req.body` is set (body-parser 1 sets `{}` for a content
  // type it skipped).
  if (maybeParsed._body === true || request.readableEnded || request.readableDidRead) {
    const { body } = maybeParsed;
    if (body === undefined || body === null) throw bodyConsumedByHost();
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      if ((typeof body === 'string' ? Buffer.byteLength(body) : body.length) > limitBytes) throw requestTooLarge(limitBytes);
      return parseJson(body.toString());
    }
    return body;
  }
  const declared = Number(request.headers['content-length']);
  if (declared > limitBytes) throw requestTooLarge(limitBytes);
  // readBody counted the bytes as they came.
  return parseJson((await readBody(request, limitBytes, timeoutMs)).toString('utf8'));
}

/** The raw body, or a 413 past `limitBytes`, a 408 past `timeoutMs`, a 499 when the caller goes away first. */
function readBody(request: IncomingMessage, limitBytes: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past a limit the rest of the body is left unread (the stream drops it), and the answer closes the connection.
    const done = (error?: unknown) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) done(requestTooLarge(limitBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => done();
    const onClose = () => done(clientClosedRequest());
    const timer = setTimeout(() => done(requestTimeout(timeoutMs)), timeoutMs);
    request.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

/** Text read here, or left in `req.body` by `express.text()` or `express.raw()`, as JSON (its size already checked). */
function parseJson(text: string): unknown {
  if (text.trim() === '') throw invalidRequest(null, 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(null, `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
}
