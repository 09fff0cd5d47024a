/**
 * The Responses API's retrieval routes over the response store:
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`,
 * `DELETE /v1/responses/{id}` and `POST /v1/responses/{id}/cancel`.
 * A caller sees only its own responses (the owner id of its API key):
 * another's reads as an id that does not exist. Without a store every id is
 * unknown: a 404 that says why. With a shared store a background run is seen,
 * and cancelled, from every replica (background.ts).
 */
import type { StateRoute, StateServices } from '../../dialect-state.js';
import { responseCancelled, responseNotFound, responseNotRunning } from '../../../errors/catalogue.js';
import { isRecord } from '../../../model/is-record.js';
import type { ResponseStore, SharedRuns, StoredResponse } from '../../../response-store/response-store.js';
import { isUnfinishedRun, settleOrphanedRun, UNFINISHED } from './background.js';
import { conversationBefore } from './conversation-before.js';

export const STORED_RESPONSE_ROUTES: readonly StateRoute[] = [
  { method: 'get', path: '/v1/responses/:id', answer: retrieve },
  { method: 'get', path: '/v1/responses/:id/input_items', answer: inputItems },
  { method: 'delete', path: '/v1/responses/:id', answer: remove },
  { method: 'post', path: '/v1/responses/:id/cancel', answer: cancel },
];

/** The store, and the entry when it is the caller's: a 404 otherwise, as for an id that does not exist. */
async function ownEntry(id: string, { store, owner }: StateServices) {
  const kept = storeOf(id, store);
  const entry = await kept.get(id, owner);
  if (!entry) throw responseNotFound(id);
  return { store: kept, entry };
}

async function retrieve(id: string, services: StateServices): Promise<Record<string, unknown>> {
  return (await settleOrphanedRun((await ownEntry(id, services)).entry, services)).response;
}

function storeOf(id: string, store: ResponseStore | undefined): ResponseStore {
  if (!store)
    throw responseNotFound(id, ': no response store is configured, so the proxy keeps no responses (responses.store in the README)');
  return store;
}

/** The whole conversation's input, as OpenAI lists it: the earlier responses' turns, then its own. */
async function inputItems(id: string, services: StateServices): Promise<Record<string, unknown>> {
  const { store, entry } = await ownEntry(id, services);
  const maxDepth = services.settings?.maxContinuationDepth ?? Infinity;
  const earlier =
    entry.previousResponseId === undefined
      ? []
      : await conversationBefore({ store, from: entry.previousResponseId, owner: services.owner, maxDepth });
  const data = [...earlier, ...entry.input].map(listedItem).reverse();
  return { object: 'list', data, first_id: itemId(data[0]), last_id: itemId(data[data.length - 1]), has_more: false };
}

async function remove(id: string, { store, owner }: StateServices): Promise<Record<string, unknown>> {
  if (!(await storeOf(id, store).delete(id, owner))) throw responseNotFound(id);
  return { id, object: 'response', deleted: true };
}

/**
 * The run is looked up first: one the store has already let go (evicted, expired) still runs and
 * is still cancelled, answered with a minimal cancelled Response. Only its owner may cancel it.
 */
async function cancel(id: string, { store, owner, runs, notKept }: StateServices): Promise<Record<string, unknown>> {
  const kept = storeOf(id, store);
  const run = runs.find(id, owner);
  const stored = await kept.get(id, owner);
  if (!run && stored && kept.runs && isUnfinishedRun(stored)) return cancelElsewhere(stored, kept, kept.runs);
  if (!run) throw stored ? responseNotRunning(id) : responseNotFound(id);
  const response = stored?.response ?? {
    id,
    object: 'response',
    created_at: run.createdAt,
    model: run.model,
    background: true,
    error: null,
    incomplete_details: null,
    output: [],
    usage: null,
  };
  response.status = 'cancelled';
  if (stored) await kept.put(stored).catch(notKept);
  run.abort.abort(responseCancelled());
  return response;
}

/**
 * A run of another replica (a shared store): kept as cancelled first, so every replica answers so at once
 * and the run's own end cannot replace it, then the replica holding it hears and aborts its upstream request.
 */
async function cancelElsewhere(stored: StoredResponse, store: ResponseStore, runs: SharedRuns): Promise<Record<string, unknown>> {
  const { id } = stored.response;
  stored.response.status = 'cancelled';
  // Only over an unfinished run: one that ended since it was read keeps its outcome, and is not running.
  if (!(await store.put(stored, UNFINISHED))) throw responseNotRunning(id);
  await runs.requestCancel(id, stored.owner);
  return stored.response;
}

/** An input item as OpenAI lists it: typed, with an id, a message's text as a content part. */
function listedItem(item: unknown, index: number): unknown {
  if (!isRecord(item) || (item.type !== undefined && item.type !== 'message')) return item;
  const role = item.role;
  const content =
    typeof item.content === 'string' ? [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: item.content }] : item.content;
  return { id: typeof item.id === 'string' ? item.id : `msg_input_${index}`, type: 'message', role, status: 'completed', content };
}

function itemId(item: unknown): string | null {
  return isRecord(item) && typeof item.id === 'string' ? item.id : null;
}
