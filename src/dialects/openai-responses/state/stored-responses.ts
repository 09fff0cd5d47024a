/**
 * The Responses API's retrieval routes over the response store:
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`,
 * `DELETE /v1/responses/{id}` and `POST /v1/responses/{id}/cancel`.
 * A caller sees only its own responses (the owner id of its API key):
 * another's reads as an id that does not exist. Without a store every id is
 * unknown: a 404 that says why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseCancelled, responseNotFound, responseNotRunning } from '../errors/catalogue.js';
import { toProxyError } from '../errors/proxy-error.js';
import { isRecord } from '../model/is-record.js';
import type { ResponseStore } from '../response-store/response-store.js';
import { checkApiKey } from './check-api-key.js';
import { conversationBefore } from './conversation-before.js';
import type { ProxyRuntime } from './runtime.js';
import { sendError, sendJson } from './send-json.js';

export type StoredResponseAction = 'get' | 'input_items' | 'delete' | 'cancel';

export async function serveStoredResponse(runtime: ProxyRuntime, action: StoredResponseAction, id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const owner = checkApiKey(req, runtime.config.server.apiKeys);
    const store = runtime.responseStore;
    if (!store) throw responseNotFound(id, ': no response store is configured, so the proxy keeps no responses (responses.store in the README)');
    if (action === 'delete') {
      if (!(await store.delete(id, owner))) throw responseNotFound(id);
      sendJson(res, 200, { id, object: 'response', deleted: true });
    } else if (action === 'cancel') {
      sendJson(res, 200, await cancel(runtime, store, id, owner));
    } else {
      const stored = await store.get(id, owner);
      if (!stored) throw responseNotFound(id);
      if (action === 'get') {
        sendJson(res, 200, stored.response);
        return;
      }
      // The whole conversation's input, as OpenAI lists it: the earlier responses' turns, then its own.
      const maxDepth = runtime.config.responses.store?.maxContinuationDepth ?? Infinity;
      const earlier = stored.previousResponseId === undefined ? [] : await conversationBefore({ store, from: stored.previousResponseId, owner, maxDepth });
      const data = [...earlier, ...stored.input].map(listedItem).reverse();
      sendJson(res, 200, { object: 'list', data, first_id: itemId(data[0]), last_id: itemId(data[data.length - 1]), has_more: false });
    }
  } catch (error) {
    sendError(res, undefined, toProxyError(error));
  }
}

/**
 * The run is looked up first: one the store has already let go (evicted, expired) still runs and
 * is still cancelled, answered with a minimal cancelled Response. Only its owner may cancel it.
 */
async function cancel(runtime: ProxyRuntime, store: ResponseStore, id: string, owner: string): Promise<Record<string, unknown>> {
  const run = runtime.backgroundRuns.get(id);
  const stored = await store.get(id, owner);
  if (!run || run.owner !== owner) throw stored ? responseNotRunning(id) : responseNotFound(id);
  const response = stored?.response ?? {
    id, object: 'response', created_at: run.createdAt, model: run.model, background: true, error: null, incomplete_details: null, output: [], usage: null,
  };
  response.status = 'cancelled';
  if (stored) await store.put(stored).catch((failure: unknown) => runtime.logger.warn('response not kept', { id, error: String(failure) }));
  run.abort.abort(responseCancelled());
  return response;
}

/** An input item as OpenAI lists it: typed, with an id, a message's text as a content part. */
function listedItem(item: unknown, index: number): unknown {
  if (!isRecord(item) || (item.type !== undefined && item.type !== 'message')) return item;
  const role = item.role;
  const content = typeof item.content === 'string' ? [{ type: role === 'assistant' ? 'output_text' : 'input_text', text: item.content }] : item.content;
  return { id: typeof item.id === 'string' ? item.id : `msg_input_${index}`, type: 'message', role, status: 'completed', content };
}

function itemId(item: unknown): string | null {
  return isRecord(item) && typeof item.id === 'string' ? item.id : null;
}
