/**
 * The Responses dialect's state hooks (src/dialects/dialect-state.ts): a
 * request's state resolved before parsing (response-state.ts), background
 * runs (background.ts), and the stored responses' own routes (stored-responses.ts).
 */
import type { DialectState, RequestState, StateServices } from '../../dialect-state.js';
import type { ProxyError } from '../../../errors/proxy-error.js';
import type { NeutralRequest } from '../../../model/request.js';
import { detachRun, failRun } from './background.js';
import { keepAnswer, keepStreamed, repeatState, resolveResponseState } from './response-state.js';
import { STORED_RESPONSE_ROUTES } from './stored-responses.js';

export const RESPONSES_STATE: DialectState = { begin: beginResponseState, routes: STORED_RESPONSE_ROUTES };

/** One request's hooks over its resolved state. */
async function beginResponseState(raw: unknown, services: StateServices): Promise<RequestState> {
  const state = await resolveResponseState(raw, services);
  const { notKept } = services;
  const { store, backgroundId } = state;
  return {
    body: state.body,
    echo: (request) => repeatState(request, state),
    ...(backgroundId !== undefined
      ? { detach: (request: NeutralRequest, abort: AbortController) => detachRun(request, abort, state, services) }
      : {}),
    keep: (answer) => keepAnswer(answer, state, notKept),
    ...(store ? { beforeWrite: (chunk: Record<string, unknown>) => keepStreamed(chunk, state, notKept) } : {}),
    fail: (error: ProxyError) => failRun(error, state, notKept),
    end: () => {
      if (backgroundId === undefined) return;
      services.runs.end(backgroundId);
      store?.runs?.release(backgroundId, state.owner);
    },
  };
}
