/**
 * The request body as JSON: taken from a host app's body parser when one ran,
 * otherwise read here with a size limit and a time limit (a body sent a byte a
 * second must not hold a connection for minutes).
 */
import type { IncomingMessage } from 'node:http';
import { bodyConsumedByHost, requestTimeout, requestTooLarge } from '../../errors/catalogue.js';
import type { ProxyConfig } from '../../config/settings.js';
import { clientClosedRequest, invalidRequest } from '../../errors/proxy-error.js';
import { checkArrayLimits } from './array-limits.js';
import { checkJsonBudget, JsonBudgetCounter } from './json-budget.js';
import { checkJsonDepth } from './json-depth.js';

type MaybeParsed = IncomingMessage & { body?: unknown; _body?: boolean };

/** The body's text, or the value a host's JSON parser made of it. */
type JsonSource = { text: string } | { value: unknown };

/**
 * A caller's body within the server's size and time limits; what it holds and
 * how deep it nests (the proxy's walkers recurse) counted as it arrives, before
 * it is parsed (json-budget.ts; json-depth.ts for a body a host's parser read);
 * its lists bounded before it is validated (array-limits.ts).
 */
export async function readCallerBody(
  request: IncomingMessage,
  { server, limits }: Pick<ProxyConfig, 'server' | 'limits'>,
): Promise<unknown> {
  const counter = new JsonBudgetCounter(limits);
  const source = await readJsonSource(request, { limitBytes: server.maxBodyBytes, timeoutMs: server.requestTimeoutMs, counter });
  if ('value' in source) {
    checkJsonBudget(source.value, limits);
    checkJsonDepth(source.value, limits.jsonDepth);
  }
  const body = parsed(source);
  checkArrayLimits(body, limits);
  return body;
}

export async function readJsonBody(request: IncomingMessage, limitBytes: number, timeoutMs = 60_000): Promise<unknown> {
  return parsed(await readJsonSource(request, { limitBytes, timeoutMs }));
}

interface ReadOptions {
  limitBytes: number;
  timeoutMs: number;
  /** Given the bytes as they are read (or all at once, a host's text or bytes). */
  counter?: JsonBudgetCounter;
}

/** The body's text, read here or left as text or bytes by a host's parser; or the value a host's JSON parser made of it. */
async function readJsonSource(request: IncomingMessage, options: ReadOptions): Promise<JsonSource> {
  const { limitBytes, counter } = options;
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
      counter?.write(typeof body === 'string' ? Buffer.from(body) : body);
      return { text: body.toString() };
    }
    return { value: body };
  }
  const declared = Number(request.headers['content-length']);
  if (declared > limitBytes) throw requestTooLarge(limitBytes);
  // readBody counted the bytes as they came.
  return { text: await readBody(request, options) };
}

/**
 * The body's bytes as text, counted as they come with a counter (json-budget.ts);
 * a 413 past `limitBytes`, a 408 past `timeoutMs`, a 499 when the caller goes
 * away first, or the counter's 400.
 */
function readBody(request: IncomingMessage, { limitBytes, timeoutMs, counter }: ReadOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    // Kept as they come and decoded once at the end: decoding each chunk, then joining the pieces, made the text twice
    // (an agent's 50 KB turn: 100 KB more garbage, and 10 us). The parse that follows is the longer step in any case.
    const chunks: Buffer[] = [];
    let size = 0;
    // Once the counter refuses, the rest of the body is read but neither kept nor counted, and the 400 answered at its end:
    // answered earlier, a client still sending would meet a closed connection (EPIPE) rather than the answer.
    let refusal: unknown;
    // Past the size or the time the rest of the body is left unread (the stream drops it), and the answer closes the connection.
    const done = (error?: unknown) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (error ?? refusal) reject(error ?? refusal);
      else resolve(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks, size).toString());
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) return done(requestTooLarge(limitBytes));
      if (refusal) return;
      try {
        counter?.write(chunk);
        chunks.push(chunk);
      } catch (error) {
        refusal = error;
        chunks.length = 0;
      }
    };
    const onEnd = () => done();
    const onClose = () => done(clientClosedRequest());
    const timer = setTimeout(() => done(requestTimeout(timeoutMs)), timeoutMs);
    request.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

/** The body as a value: text read here, or left in `req.body` by `express.text()` or `express.raw()`, parsed as JSON (its size already checked). */
function parsed(source: JsonSource): unknown {
  if (!('text' in source)) return source.value;
  const { text } = source;
  if (text.trim() === '') throw invalidRequest(null, 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(null, `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
}
