/**
 * `maxConcurrent` and `queueLimit` for a remote backend: at most `max`
 * requests in flight, up to `queueLimit` more waiting in arrival order, and
 * beyond that a 429 with `Retry-After`. A waiting request whose caller leaves
 * is taken out of the queue at once.
 */
import { backendBusy } from '../src/errors/catalogue.js';
import type { AbortSource } from './transport/deadline.js';

export interface ConcurrencyLimit {
  /** Resolves with the slot's release once the request may go; rejects with a 429 when the queue is full, with the signal's reason when it aborts. */
  acquire(signal: AbortSource): Promise<() => void>;
  readonly inFlight: number;
  readonly queued: number;
}

interface Waiter {
  grant(): void;
  signal: AbortSource;
  onAbort(): void;
}

export function createConcurrencyLimit(backend: string, max: number, queueLimit: number): ConcurrencyLimit {
  let inFlight = 0;
  const queue: Waiter[] = [];
  const release = () => {
    inFlight -= 1;
    const next = queue.shift();
    if (next) {
      next.signal.removeEventListener('abort', next.onAbort);
      inFlight += 1;
      next.grant();
    }
  };
  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return queue.length;
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (inFlight < max) {
        inFlight += 1;
        return Promise.resolve(once());
      }
      if (queue.length >= queueLimit) return Promise.reject(backendBusy(backend));
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          grant: () => resolve(once()),
          signal,
          onAbort: () => {
            queue.splice(queue.indexOf(waiter), 1);
            reject(signal.reason);
          },
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
        queue.push(waiter);
      });
    },
  };
}
