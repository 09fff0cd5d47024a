/**
 * A stream is opened before any header is sent: the first batch is awaited,
 * so that a failure before any output is still an ordinary HTTP error (and
 * the next backend may take over). A backend that has taken the request
 * (the adapter calls `accepted`) but then stays silent for `keepAliveMs` gets
 * the headers and a keep-alive comment instead; until it has taken it, the
 * wait is open, as the request may still fail or be retried.
 */
import type { AdapterContext } from '../../backend/adapter.js';
import { failureOf } from '../../errors/proxy-error.js';
import type { StreamBatches, StreamEvent } from '../../model/stream-event.js';
import { coalesceEvents } from '../../streaming/coalesce-events.js';
import type { Plan } from '../plan/plan.js';

export interface OpenedStream {
  /** Every batch, the awaited first one included. */
  batches: StreamBatches;
  /** The backend took the request and stayed silent: the headers and a keep-alive go out before the first batch. */
  keepAliveFirst: boolean;
}

/** Throws the stream's opening error (in the caller's terms, as the plan's engine gives it). */
export async function openStream(plan: Plan, context: Omit<AdapterContext, 'accepted'>, keepAliveMs: number): Promise<OpenedStream> {
  let accepted: () => void = () => undefined;
  const acceptance = new Promise<void>((resolve) => {
    accepted = resolve;
  });
  let batches = plan.engine.stream(plan.request, { ...context, accepted });
  if (plan.request.stream?.coalesce) batches = coalesceEvents(batches, plan.request.stream.coalesce);
  const iterator = batches[Symbol.asyncIterator]();
  const first = iterator.next().catch((thrown: unknown): IteratorResult<StreamEvent[]> => ({
    done: false,
    value: [{ type: 'error', error: failureOf(thrown, context.signal) }],
  }));
  const keepAliveFirst = await keepAliveDue(first, acceptance, keepAliveMs);
  if (!keepAliveFirst) {
    const result = await first;
    const opening = result.done ? undefined : result.value[0];
    if (opening?.type === 'error') {
      await iterator.return?.(undefined);
      throw opening.error;
    }
  }
  return { batches: withFirst(first, iterator), keepAliveFirst };
}

/** True when the backend has taken the request and then stayed silent for keepAliveMs; false once the first batch (or a failure) is in. */
async function keepAliveDue(first: Promise<unknown>, accepted: Promise<void>, keepAliveMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const due = accepted.then(() =>
    settled
      ? false
      : new Promise<boolean>((resolve) => {
          timer = setTimeout(resolve, keepAliveMs, true);
        }),
  );
  try {
    return await Promise.race([
      first.then(
        () => false,
        () => false,
      ),
      due,
    ]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/** The stream again, its already-pulled first batch in front (no extra generator layer). */
function withFirst<T>(first: Promise<IteratorResult<T>>, rest: AsyncIterator<T>): AsyncIterable<T> {
  let pulled = false;
  const iterator: AsyncIterator<T> = {
    next: () => {
      if (pulled) return rest.next();
      pulled = true;
      return first;
    },
    return: async (value?: unknown) => (await rest.return?.(value)) ?? { done: true, value: undefined },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
