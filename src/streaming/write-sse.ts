/**
 * Writes wire chunks to the client as SSE with back-pressure, then the end
 * frame (`[DONE]`).
 * Frames produced from one upstream packet (which often carries many) are
 * joined and leave in one write: the flush waits for the pending microtasks
 * (process.nextTick), not for another turn of the event loop.
 * Returns when the stream ends or the client goes away (the caller's abort
 * signal then cancels the upstream work through the generators' `finally`).
 */
import type { ServerResponse } from 'node:http';
import { dataFraming, type SseFraming } from './encode-sse.js';
import { keepAlive } from './keep-alive.js';

export interface WriteSseOptions<Chunk> {
  /** An SSE comment after this long without a write (keep-alive.ts); off when unset. */
  keepAliveMs?: number;
  /** How chunks become frames, and what ends the stream (default: `data:` frames, then `[DONE]`). */
  framing?: SseFraming<Chunk>;
}

export async function writeSse<Chunk>(response: ServerResponse, chunks: AsyncIterable<Chunk>, options: WriteSseOptions<Chunk> = {}): Promise<void> {
  const { frame, end }: SseFraming<Chunk> = options.framing ?? dataFraming;
  let pending = '';
  let scheduled = false;
  const alive = options.keepAliveMs ? keepAlive(response, options.keepAliveMs) : undefined;
  const flush = () => {
    scheduled = false;
    if (pending === '' || response.destroyed) return;
    response.write(pending);
    pending = '';
    alive?.touch();
  };
  try {
    for await (const chunk of chunks) {
      if (response.destroyed || response.writableEnded) return;
      pending += frame(chunk);
      if (!scheduled) {
        scheduled = true;
        process.nextTick(flush);
      }
      // A client reading slower than we produce holds the stream (and through it the upstream).
      // Read the socket's state now: a drain may already have come while we waited for this chunk.
      if (response.writableNeedDrain) await drained(response);
    }
    if (!response.destroyed && !response.writableEnded) response.end(pending + end);
    pending = '';
  } finally {
    alive?.stop();
  }
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
