/**
 * SSE keep-alive: while a stream has written nothing for `ms`, an SSE comment
 * line, which clients ignore and proxies and load balancers count as traffic,
 * so they do not cut a reasoning model that thinks for minutes. One timer per
 * stream, re-armed only when it fires; writes just note the time.
 */
import type { ServerResponse } from 'node:http';

export const sseKeepAliveComment = ': keep-alive\n\n';

export interface KeepAlive {
  /** Something was written now. */
  touch(): void;
  stop(): void;
}

export function keepAlive(response: ServerResponse, ms: number, frame = sseKeepAliveComment): KeepAlive {
  let last = Date.now();
  let timer: NodeJS.Timeout;
  const arm = (delay: number) => {
    timer = setTimeout(tick, delay);
    timer.unref();
  };
  function tick(): void {
    if (response.destroyed || response.writableEnded) return;
    const idle = Date.now() - last;
    if (idle >= ms) {
      response.write(frame);
      last = Date.now();
      arm(ms);
    } else {
      arm(ms - idle);
    }
  }
  arm(ms);
  return {
    touch: () => {
      last = Date.now();
    },
    stop: () => clearTimeout(timer),
  };
}
