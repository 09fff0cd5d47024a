/**
 * The request body as JSON: taken from a host app's body parser when one ran
 * (`express.json()` sets `req._body`), otherwise read here with a size limit.
 */
import type { IncomingMessage } from 'node:http';
import { requestTooLarge } from '../errors/catalogue.js';
import { invalidRequest } from '../errors/proxy-error.js';

type MaybeParsed = IncomingMessage & { body?: unknown; _body?: boolean };

export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<unknown> {
  const maybeParsed = request as MaybeParsed;
  if (maybeParsed._body === true) return maybeParsed.body;
  const declared = Number(request.headers['content-length']);
  if (declared > limitBytes) throw requestTooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw requestTooLarge(limitBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw invalidRequest(null, 'The request body is empty; a JSON object is required.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidRequest(null, `The request body is not valid JSON: ${(error as Error).message}`, 'invalid_json');
  }
}
