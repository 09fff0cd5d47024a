/**
 * `background: true` (with a response store): the caller gets the Response at
 * once, `queued`; the request runs on whatever the caller does next, and the
 * store holds its outcome for `GET /v1/responses/{id}`. A cancel
 * (`POST /v1/responses/{id}/cancel`, stored-responses.ts) aborts a run of this
 * process; with a shared store (its `runs`), of any replica: the run is held
 * there while it goes, and one whose replica died is answered as failed. They
 * are requests in flight like any other: a shutdown's drain waits for them,
 * then aborts them.
 */
import type { StateServices } from '../../dialect-state.js';
import { limitExceeded, responseCancelled } from '../../../errors/catalogue.js';
import type { ProxyError } from '../../../errors/proxy-error.js';
import type { NeutralRequest } from '../../../model/request.js';
import { ResponseTooLarge, type StoredResponse } from '../../../response-store/response-store.js';
import { errorBody } from '../response-object.js';
import { serializeResponsesResult } from '../serialize-result.js';
import { storedEntry, type ResponseState } from './response-state.js';

/** Counts the run in (or refuses it with a 429), keeps it `queued` and returns it: the caller's answer. */
export async function detachRun(
  request: NeutralRequest,
  abort: AbortController,
  state: ResponseState,
  { runs }: StateServices,
): Promise<Record<string, unknown>> {
  const id = state.backgroundId as string;
  const created = Math.floor(Date.now() / 1000);
  // Counted before the first await, so requests arriving together cannot all slip under the limit.
  runs.admit(id, { abort, owner: state.owner, model: request.model, createdAt: created });
  const queued = serializeResponsesResult({ id, model: request.model, created, choices: [] }, request);
  Object.assign(queued, { status: 'queued', output: [], usage: null, completed_at: null });
  // Held before it is stored: whoever reads it `queued` finds it running, not orphaned.
  await state.store?.runs?.hold(id, state.owner, () => abort.abort(responseCancelled()));
  try {
    await state.store?.put(storedEntry(queued, state));
  } catch (error) {
    // Its instructions or tools made it too large: the same refusal as an input too large (response-state.ts).
    if (error instanceof ResponseTooLarge)
      throw limitExceeded(
        'store',
        `The response takes ${error.bytes} bytes; a stored response may take at most ${error.limit}`,
        'responses.store.maxResponseBytes',
      );
    throw error;
  }
  return queued;
}

/** A run that failed is kept as `failed`, with the error the caller would have had. */
export async function failRun(error: ProxyError, state: ResponseState, notKept: (error: unknown) => void): Promise<void> {
  if (error.code === 'response_cancelled' || !state.store || state.backgroundId === undefined) return;
  const stored = await state.store.get(state.backgroundId, state.owner);
  if (!stored) return;
  Object.assign(stored.response, { status: 'failed', error: errorBody(error) });
  await state.store.put(stored).catch(notKept);
}

/** The statuses of a background response that has not ended yet: what a cancel may stop. */
export const UNFINISHED: readonly string[] = ['queued', 'in_progress'];

export function isUnfinishedRun(entry: StoredResponse): boolean {
  return entry.response.background === true && UNFINISHED.includes(entry.response.status as string);
}

/**
 * A background run no replica holds any more (the one running it died, or lost the store for longer than
 * the lease) is kept and answered as failed, not `queued` forever. Only a shared store can tell.
 */
export async function settleOrphanedRun(
  entry: StoredResponse,
  { store, runs, owner }: Pick<StateServices, 'store' | 'runs' | 'owner'>,
): Promise<StoredResponse> {
  const { id } = entry.response;
  if (!store?.runs || !isUnfinishedRun(entry) || runs.find(id, owner) || (await store.runs.isRunning(id, owner))) return entry;
  const failed = structuredClone(entry);
  Object.assign(failed.response, {
    status: 'failed',
    error: { code: 'server_error', message: 'The instance running this background response stopped before it finished.' },
  });
  // Only over the unfinished entry read: a run that ended (and let its lease go) since then keeps its outcome.
  if (await store.put(failed, UNFINISHED)) return failed;
  return (await store.get(id, owner)) ?? entry;
}
