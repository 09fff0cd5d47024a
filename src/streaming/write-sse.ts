/**
 * Writes wire chunks to the client as SSE with back-pressure, then `[DONE]`.
 * Frames produced in the same turn of the event loop (one upstream packet often
 * carries many) leave in one write: the socket is corked until the turn ends.
 * Returns when the stream ends or the client goes away (the caller's abort
 * signal then cancels the upstream work through the generators' `finally`).
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { encodeSseData, sseDone } from './encode-sse.js';

export async function writeSse(response: ServerResponse, chunks: AsyncIterable<unknown>): Promise<void> {
  let corked = false;
  const uncork = () => {
    corked = false;
    response.uncork();
  };
  for await (const chunk of chunks) {
    if (response.destroyed || response.writableEnded) return;
    if (!corked) {
      corked = true;
      response.cork();
      setImmediate(uncork);
    }
    if (!response.write(encodeSseData(chunk))) {
      if (corked) uncork();
      await Promise.race([once(response, 'drain'), once(response, 'close')]);
    }
  }
  if (!response.destroyed && !response.writableEnded) response.end(sseDone);
}
