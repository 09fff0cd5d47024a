/**
 * `background: true` (with a response store): the caller gets the Response at
 * once, `queued`; the request runs on whatever the caller does next, and the
 * store holds its outcome for `GET /v1/responses/{id}`. A cancel
 * (`POST /v1/responses/{id}/cancel`) aborts a run of this process.
 */
import type { ServerResponse } from 'node:http';
import type { Dialect } from '../dialects/dialect.js';
import type { ProxyError } from '../errors/proxy-error.js';
import { errorBody as responseErrorBody } from '../dialects/openai-responses/response-object.js';
import type { NeutralRequest } from '../model/request.js';
import type { ProxyRuntime } from './runtime.js';
import type { ResponseState } from './response-state.js';
import { sendJson } from './send-json.js';

export async function startBackground(runtime: ProxyRuntime, dialect: Dialect, request: NeutralRequest, state: ResponseState, res: ServerResponse, abort: AbortController): Promise<void> {
  const id = state.backgroundId as string;
  const queued = dialect.serializeResult({ id, model: request.model, created: Math.floor(Date.now() / 1000), choices: [] }, request);
  Object.assign(queued, { id, status: 'queued', output: [], usage: null, completed_at: null });
  await state.store?.put({ response: queued as { id: string }, input: state.input });
  runtime.backgroundRuns.set(id, abort);
  sendJson(res, 200, queued);
}

/** A run that failed is kept as `failed`, with the error the caller would have had. */
export async function failBackground(runtime: ProxyRuntime, state: ResponseState, error: ProxyError): Promise<void> {
  if (error.code === 'response_cancelled' || !state.store || state.backgroundId === undefined) return;
  const stored = await state.store.get(state.backgroundId);
  if (!stored) return;
  Object.assign(stored.response, { status: 'failed', error: responseErrorBody(error) });
  await state.store.put(stored).catch((failure: unknown) => runtime.logger.warn('response not kept', { id: state.backgroundId, error: String(failure) }));
}
