/**
 * The Responses API's state, around one request (the dialect's hooks,
 * src/dialects/dialect-state.ts): before parsing, the conversation named by
 * `previous_response_id` is rebuilt from the store (conversation-before.ts)
 * and put in front of the input; `background` answers at once and runs on
 * (background.ts); after answering, a response asked to be stored
 * (`store: true`) is kept with its own request's input and the id of the
 * response it continued, under its owner. Every Responses answer gets the
 * proxy's own random id here, never the backend's. With no store configured
 * the rest is off: the dialect's table refuses `previous_response_id` and
 * `background` by name, and `store: true` leaves a warning.
 */
import type { StateServices } from '../../dialect-state.js';
import { itemNotFound, limitExceeded } from '../../../errors/catalogue.js';
import { invalidRequest } from '../../../errors/proxy-error.js';
import { isRecord } from '../../../model/is-record.js';
import type { NeutralRequest } from '../../../model/request.js';
import { jsonBytes, type ResponseStore, type StoredResponse } from '../../../response-store/response-store.js';
import { newResponseId } from '../response-object.js';
import { wasCut } from '../repeated-output.js';
import { conversationBefore } from './conversation-before.js';

/** One Responses request's state, resolved before its body is parsed. */
export interface ResponseState {
  /** The body to parse: without the fields the state took over, with the earlier turns in its input. */
  body: unknown;
  /** The Response's id: the proxy's own, random, whatever the backend calls its answer. */
  responseId: string;
  /** Who the answer belongs to (checkApiKey's owner id). */
  owner: string;
  /** Set when the answer is to be kept. */
  store?: ResponseStore;
  /** This request's own input items (item_references resolved): what its stored entry keeps. */
  input: unknown[];
  previousResponseId?: string;
  /** Set (to responseId) for a background response, answered at once as `queued`. */
  backgroundId?: string;
}

const isReference = (item: unknown): item is { type: 'item_reference'; id: string } =>
  isRecord(item) && item.type === 'item_reference' && typeof item.id === 'string';

/** Clients that count on stored items (the AI SDK's OpenAI provider, by default) send references to them: the store has them. */
async function referencedItem(store: ResponseStore, owner: string, id: string, index: number): Promise<unknown> {
  const item = await store.findItem(id, owner);
  if (item === undefined) throw itemNotFound(id, `input[${index}]`);
  return item;
}

const asItems = (input: unknown): unknown[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];

export async function resolveResponseState(
  raw: unknown,
  { store, settings, owner }: Pick<StateServices, 'store' | 'settings' | 'owner'>,
): Promise<ResponseState> {
  const responseId = newResponseId();
  // Not an object: the dialect's parse says so, in its words.
  if (!isRecord(raw)) return { body: raw, responseId, owner, input: [] };
  const body = { ...raw };
  const state: ResponseState = { body, responseId, owner, input: asItems(body.input) };
  // Without a store the body goes to the dialect as it came: its table refuses what needs one, and warns that nothing is kept.
  // An input of the wrong shape goes as it came too, for the validator to name.
  if (!store || !(body.input === undefined || body.input === null || typeof body.input === 'string' || Array.isArray(body.input)))
    return state;
  if (state.input.some(isReference)) {
    state.input = await Promise.all(state.input.map((item, i) => (isReference(item) ? referencedItem(store, owner, item.id, i) : item)));
    body.input = state.input;
  }
  if (typeof body.previous_response_id === 'string') {
    const earlier = await conversationBefore({
      store,
      from: body.previous_response_id,
      owner,
      maxDepth: settings?.maxContinuationDepth ?? Infinity,
    });
    state.previousResponseId = body.previous_response_id;
    body.input = [...earlier, ...state.input];
    delete body.previous_response_id;
  }
  if (body.background === true) {
    if (body.stream === true)
      throw invalidRequest(
        'background',
        'background with stream is not supported by this proxy: start the response in the background and poll GET /v1/responses/{id}.',
        'unsupported_parameter',
      );
    if (body.store === false)
      throw invalidRequest('background', 'background requires store: a background response is fetched from the store.');
    state.backgroundId = responseId;
    body.store = true;
  }
  delete body.background;
  if (body.store === true) {
    // Asked for by name: an input the store could never keep is refused now, not answered unkept.
    const limit = settings?.maxResponseBytes ?? Infinity;
    const bytes = Number.isFinite(limit) ? jsonBytes(state.input) : 0;
    if (bytes > limit)
      throw limitExceeded(
        'store',
        `The input takes ${bytes} bytes; a stored response may take at most ${limit}`,
        'responses.store.maxResponseBytes',
      );
    // Asked for by name, so a store that is down is a 503 now, before the upstream spends anything.
    await store.checkAvailable?.();
    state.store = store;
  } else if ((body.store === undefined || body.store === null) && settings?.storeByDefault && store.health?.() !== 'degraded') {
    // Kept by default only while the store is up: with it down, a request that did not ask is answered unkept at once (store: false).
    state.store = store;
  }
  // Taken over here: the dialect's own row would warn that no store keeps it.
  delete body.store;
  return state;
}

/** What the Response repeats of the fields the state took over (the dialect repeats the rest), and the id it gave it. */
export function repeatState(request: NeutralRequest, state: ResponseState): void {
  const params = (request.echoedParams ??= {});
  params.id = state.responseId;
  if (state.previousResponseId !== undefined) params.previous_response_id = state.previousResponseId;
  if (state.backgroundId !== undefined) params.background = true;
  params.store = state.store !== undefined;
}

/** The entry that keeps `response` for this request's owner. */
export function storedEntry(response: Record<string, unknown>, state: ResponseState): StoredResponse {
  return {
    response: response as StoredResponse['response'],
    input: state.input,
    owner: state.owner,
    ...(state.previousResponseId !== undefined ? { previousResponseId: state.previousResponseId } : {}),
  };
}

/**
 * Keeps the answer when the caller asked. A store that fails, or refuses the answer as too large (or cut, repeated-output.ts),
 * does not cost the caller the answer: it says `store: false`, and `failed` hears why. A background
 * caller hears only from the store: it keeps the response as `failed`, saying why, without its output.
 */
export async function keepAnswer(
  answer: Record<string, unknown>,
  state: ResponseState,
  failed: (error: unknown) => void = () => undefined,
): Promise<Record<string, unknown>> {
  if (!state.store) return answer;
  try {
    // Its closing events left part of the output out: kept, it would be a conversation the model did not have.
    if (wasCut(answer)) throw new Error('the output is longer than a stream repeats whole (limits.repeatedOutputBytes), so it is not kept');
    await state.store.put(storedEntry(answer, state));
  } catch (error) {
    answer.store = false;
    failed(error);
    if (state.backgroundId !== undefined) {
      const unkept = {
        ...answer,
        store: true,
        status: 'failed',
        output: [],
        error: { code: 'server_error', message: `The response could not be kept: ${(error as Error)?.message ?? String(error)}` },
      };
      await state.store.put(storedEntry(unkept, state)).catch(failed);
    }
  }
  return answer;
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** A stored stream is kept when its last event carries the whole Response: before that event is written (undefined for the others). */
export function keepStreamed(
  event: Record<string, unknown>,
  state: ResponseState,
  failed?: (error: unknown) => void,
): Promise<void> | undefined {
  if (!FINAL_EVENTS.has(event.type as string) || !isRecord(event.response)) return undefined;
  return keepAnswer(event.response, state, failed).then(() => undefined);
}
