/**
 * How a Gemini stream is framed: with `alt=sse`, `data: {json}` events separated by a blank line
 * (`\r\n\r\n`, as Google sends them), no `[DONE]`; without it, one JSON array whose elements arrive
 * as they are made, as Google answers a plain `:streamGenerateContent`.
 */
import type { SseFraming } from '../../streaming/encode-sse.js';
import { framedChunk } from './chunk-json.js';

export const geminiSseFraming: SseFraming = {
  frame: (chunk) => framedChunk(chunk, 'data: ', '\r\n\r\n'),
  end: '',
};

/** The headers of the JSON-array stream (Google's, charset and all). */
export const JSON_ARRAY_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=UTF-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};

/** The array stream, for one request: it opens with its first element, so it keeps whether it has. */
export class JsonArrayFraming implements SseFraming {
  readonly end = '\n]';
  /** JSON whitespace: valid before, between and after the elements. */
  readonly keepAlive = '\n';
  readonly headers = JSON_ARRAY_HEADERS;
  private opened = false;

  frame = (chunk: Record<string, unknown>): string => {
    const head = this.opened ? '\n,\r\n' : '[';
    this.opened = true;
    return framedChunk(chunk, head, '');
  };

  /** The closing text for a failure the serializer did not write (the proxy's own, after the headers). */
  failure(error: Record<string, unknown>): string {
    return this.frame(error) + this.end;
  }
}
