/**
 * `background: true` (with a response store): the caller gets the Response at
 * once, `queued`; the request runs on whatever the caller does next, and the
 * store holds its outcome for `GET /v1/responses/{id}`. A cancel
 * (`POST /v1/responses/{id}/cancel`) aborts a run of this process. Runs are
 * counted (`limits.backgroundRuns` per process, `limits.backgroundRunsPerKey`
 * per owner): each holds an upstream request open, and nobody waits on it to
 * push back. They are requests in flight like any other: a shutdown's drain
 * waits for them, then aborts them.
 */
import type { ServerResponse } from 'node:http';
import type { Dialect } from '../dialects/dialect.js';
import { concurrencyLimitReached, limitExceeded } from '../errors/catalogue.js';
import type { ProxyError } from '../errors/proxy-error.js';
import { errorBody as responseErrorBody } from '../dialects/openai-responses/response-object.js';
import type { NeutralRequest } from '../model/request.js';
import { ResponseTooLarge } from '../response-store/response-store.js';
import type { ProxyRuntime } from './runtime.js';
import { storedEntry, type ResponseState } from './response-state.js';
import { sendJson } from './send-json.js';

/** Counts the run in (or refuses it with a 429), keeps it `queued` and answers with it; the run goes on in the caller's request handler. */
export async function startBackground(runtime: ProxyRuntime, dialect: Dialect, request: NeutralRequest, state: ResponseState, res: ServerResponse, abort: AbortController): Promise<void> {
  const id = state.backgroundId as string;
  admitRun(runtime, state.owner);
  const created = Math.floor(Date.now() / 1000);
  // Counted before the first await, so requests arriving together cannot all slip under the limit.
  runtime.backgroundRuns.set(id, { abort, owner: state.owner, model: request.model, createdAt: created });
  const queued = dialect.serializeResult({ id, model: request.model, created, choices: [] }, request);
  Object.assign(queued, { status: 'queued', output: [], usage: null, completed_at: null });
  try {
    await state.store?.put(storedEntry(queued, state));
  } catch (error) {
    // Its instructions or tools made it too large: the same refusal as an input too large (response-state.ts).
    if (error instanceof ResponseTooLarge) throw limitExceeded('store', `The response takes ${error.bytes} bytes; a stored response may take at most ${error.limit}`, 'responses.store.maxResponseBytes');
    throw error;
  }
  sendJson(res, 200, queued);
}

/** A 429 naming the limit when the process, or this owner, already runs as many as it may. */
function admitRun(runtime: ProxyRuntime, owner: string): void {
  const { backgroundRuns: perProcess, backgroundRunsPerKey: perKey } = runtime.config.limits;
  if (runtime.backgroundRuns.size >= perProcess) throw concurrencyLimitReached('background', `${perProcess} background responses are running in this process, the most it runs at once`, 'limits.backgroundRuns');
  let mine = 0;
  for (const run of runtime.backgroundRuns.values()) if (run.owner === owner) mine++;
  if (mine >= perKey) throw concurrencyLimitReached('background', `This API key has ${perKey} background responses running, the most one key runs at once`, 'limits.backgroundRunsPerKey');
}

/** A run that failed is kept as `failed`, with the error the caller would have had. */
export async function failBackground(runtime: ProxyRuntime, state: ResponseState, error: ProxyError): Promise<void> {
  if (error.code === 'response_cancelled' || !state.store || state.backgroundId === undefined) return;
  const stored = await state.store.get(state.backgroundId, state.owner);
  if (!stored) return;
  Object.assign(stored.response, { status: 'failed', error: responseErrorBody(error) });
  await state.store.put(stored).catch((failure: unknown) => runtime.logger.warn('response not kept', { id: state.backgroundId, error: String(failure) }));
}
