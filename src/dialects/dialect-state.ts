/**
 * The hooks of a dialect with state of its own (the Responses API: stored
 * responses, `previous_response_id`, background runs). The pipeline calls
 * them around a request and knows nothing of what they keep; a stateless
 * dialect has none, and its requests skip every hook.
 */
import type { ResponseStoreSettings } from '../config/settings.js';
import type { ProxyError } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import type { BackgroundRuns } from '../response-store/background-runs.js';
import type { ResponseStore } from '../response-store/response-store.js';

/** Where the state lives, and who asks: given by the pipeline for each request. */
export interface StateServices {
  /** Absent when the proxy keeps no state (`responses.store` unset). */
  store?: ResponseStore;
  settings?: Pick<ResponseStoreSettings, 'storeByDefault' | 'maxResponseBytes' | 'maxContinuationDepth'>;
  runs: BackgroundRuns;
  /** The caller's owner id (checkApiKey); '' when the proxy has no keys. */
  owner: string;
  /** Told when the state could not be kept: the caller gets its answer anyway. */
  notKept(error: unknown): void;
}

export interface DialectState {
  /** Before parsing: the body with what the state supplies (earlier turns, referenced items) and without the fields the state takes over. */
  begin(body: unknown, services: StateServices): Promise<RequestState>;
  /** Routes answered from the state alone, beside the dialect's `POST` (`GET /v1/responses/:id`). */
  readonly routes: readonly StateRoute[];
}

/** One request's state, from `begin` to `end`. */
export interface RequestState {
  /** The body to parse. */
  readonly body: unknown;
  /** After parsing: what the answer repeats of the state (its id, `store`). */
  echo(request: NeutralRequest): void;
  /**
   * Set when the caller is answered at once and the request runs on without it (`background: true`):
   * counts the run in (or refuses it) and gives that first answer. A detached request's answer goes
   * to `keep` only, and its failure to `fail`.
   */
  detach?(request: NeutralRequest, abort: AbortController): Promise<Record<string, unknown>>;
  /** The answer, kept when the caller asked; returns what the caller gets. */
  keep(answer: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A stream's chunk before it is written: the last chunk of a kept stream waits here to be kept. */
  beforeWrite?(chunk: Record<string, unknown>): Promise<void> | undefined;
  /** A detached request that failed: kept as failed, for whoever asks later. */
  fail(error: ProxyError): Promise<void>;
  /** The request is over (answered, failed or cancelled). */
  end(): void;
}

export interface StateRoute {
  method: 'get' | 'post' | 'delete';
  /** An Express path, its one parameter `:id`. */
  path: string;
  /** The 200 answer's body; throws the ProxyError a caller gets otherwise. */
  answer(id: string, services: StateServices): Promise<Record<string, unknown>>;
}
