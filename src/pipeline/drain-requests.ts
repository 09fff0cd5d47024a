/** The request side of a graceful shutdown: let the requests in flight finish, for a while. */
import type { ProxyRuntime } from './runtime.js';

export interface DrainOutcome {
  /** Requests that were still in flight when the grace ran out, ended with a 503 `shutting_down` (an error frame in a stream). */
  ended: number;
}

/** After `endRequests()`, how long the ended requests get to write their 503 or error frame. */
const ENDING_MS = 1000;

/** Waits up to `graceMs` for the requests in flight to finish, then ends the rest. */
export async function drainRequests(runtime: Pick<ProxyRuntime, 'inFlight' | 'endRequests'>, graceMs: number): Promise<DrainOutcome> {
  if (await settlesWithin(runtime.inFlight.idle(), graceMs)) return { ended: 0 };
  const ended = runtime.inFlight.size;
  runtime.endRequests();
  await settlesWithin(runtime.inFlight.idle(), ENDING_MS);
  return { ended };
}

/** True when `promise` settles within `ms`; the timer never outlives the wait. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
