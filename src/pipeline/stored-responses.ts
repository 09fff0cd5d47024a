/**
 * The Responses API's retrieval routes over the response store:
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items`,
 * `DELETE /v1/responses/{id}` and `POST /v1/responses/{id}/cancel`.
 * Without a store every id is unknown: a 404 that says why.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { responseCancelled, responseNotFound, responseNotRunning } from '../errors/catalogue.js';
import { toProxyError } from '../errors/proxy-error.js';
import { isRecord } from '../model/is-record.js';
import { checkApiKey } from './check-api-key.js';
import type { ProxyRuntime } from './runtime.js';
import { sendError, sendJson } from './send-json.js';

export type StoredResponseAction = 'get' | 'input_items' | 'delete' | 'cancel';

export async function serveStoredResponse(runtime: ProxyRuntime, action: StoredResponseAction, id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    checkApiKey(req, runtime.config.server.apiKeys);
    const store = runtime.responseStore;
    if (!store) throw responseNotFound(id, ': no response store is configured, so the proxy keeps no responses (responses.store in the README)');
    if (action === 'delete') {
      if (!(await store.delete(id))) throw responseNotFound(id);
      sendJson(res, 200, { id, object: 'response', deleted: true });
      return;
    }
    const stored = await store.get(id);
    if (!stored) throw responseNotFound(id);
    if (action === 'input_items') {
      const data = stored.input.map(listedItem).reverse();
      sendJson(res, 200, { object: 'list', data, first_id: itemId(data[0]), last_id: itemId(data[data.length - 1]), has_more: false });
      return;
    }
    if (action === 'cancel') {
      const run = runtime.backgroundRuns.get(id);
      if (!run) throw responseNotRunning(id);
      stored.response.status = 'cancelled';
      await store.put(stored);
      run.abort(responseCancelled());
    }
    sendJson(res, 200, stored.response);
  } catch (error) {
    sendError(res, undefined, toProxyError(error));
  }
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
