/**
 * Writes wire chunks to the client as SSE with back-pressure, then `[DONE]`.
 * Returns when the stream ends or the client goes away (the caller's abort
 * signal then cancels the upstream work through the generators' `finally`).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { encodeSseData, sseDone } from './encode-sse.js';

export async function writeSse(response: ServerResponse, chunks: AsyncIterable<unknown>, onFirstChunk?: () => void): Promise<void> {
  let first = true;
  for await (const chunk of chunks) {
    if (response.destroyed || response.writableEnded) return;
    if (first) {
      first = false;
      onFirstChunk?.();
    }
    if (!response.write(encodeSseData(chunk))) {
      await Promise.race([once(response, 'drain'), once(response, 'close')]);
    }
  }
  if (!response.destroyed && !response.writableEnded) response.end(sseDone);
}
