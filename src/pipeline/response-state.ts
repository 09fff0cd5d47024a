/**
 * The Responses API's state, around one request: before parsing, an earlier
 * response named by `previous_response_id` is read from the store and its
 * turns put in front of the input; `background` is taken over by the
 * pipeline; after answering, a response asked to be stored (`store: true`) is
 * kept with the input it answered. With no store configured all of this is
 * off: the dialect's table refuses `previous_response_id` and `background` by
 * name, and `store: true` leaves a warning.
 */
import { randomUUID } from 'node:crypto';
import { itemNotFound, previousResponseNotFound } from '../errors/catalogue.js';
import { invalidRequest } from '../errors/proxy-error.js';
import { isRecord } from '../model/is-record.js';
import type { NeutralRequest } from '../model/request.js';
import type { ResponseStore, StoredResponse } from '../response-store/response-store.js';

/** One Responses request's state, resolved before its body is parsed. */
export interface ResponseState {
  /** The body to parse: without the fields the pipeline took over, with the earlier turns in its input. */
  body: unknown;
  /** Set when the answer is to be kept. */
  store?: ResponseStore;
  /** Every input item of the conversation so far, this request's last. */
  input: unknown[];
  previousResponseId?: string;
  /** The id of a background response, answered at once as `queued`. */
  backgroundId?: string;
}

const isReference = (item: unknown): item is { type: 'item_reference'; id: string } => isRecord(item) && item.type === 'item_reference' && typeof item.id === 'string';

/** Clients that count on stored items (the AI SDK's OpenAI provider, by default) send references to them: the store has them. */
async function referencedItem(store: ResponseStore, id: string, index: number): Promise<unknown> {
  const item = await store.findItem(id);
  if (item === undefined) throw itemNotFound(id, `input[${index}]`);
  return item;
}

const asItems = (input: unknown): unknown[] => (typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : []);

export async function resolveResponseState(raw: unknown, store: ResponseStore | undefined, storeByDefault = false): Promise<ResponseState> {
  // Not an object: the dialect's parse says so, in its words.
  if (!isRecord(raw)) return { body: raw, input: [] };
  const body = { ...raw };
  const state: ResponseState = { body, input: asItems(body.input) };
  // Without a store the body goes to the dialect as it came: its table refuses what needs one, and warns that nothing is kept.
  // An input of the wrong shape goes as it came too, for the validator to name.
  if (!store || !(body.input === undefined || body.input === null || typeof body.input === 'string' || Array.isArray(body.input))) return state;
  if (typeof body.previous_response_id === 'string') {
    const previous = await store.get(body.previous_response_id);
    if (!previous) throw previousResponseNotFound(body.previous_response_id);
    state.previousResponseId = body.previous_response_id;
    // The earlier request's input (its own earlier turns included), then what it answered; instructions are not carried over (as OpenAI does).
    const output = Array.isArray(previous.response.output) ? previous.response.output : [];
    state.input = [...previous.input, ...output, ...state.input];
    body.input = state.input;
    delete body.previous_response_id;
  }
  if (state.input.some(isReference)) {
    state.input = await Promise.all(state.input.map((item, i) => (isReference(item) ? referencedItem(store, item.id, i) : item)));
    body.input = state.input;
  }
  if (body.background === true) {
    if (body.stream === true) throw invalidRequest('background', 'background with stream is not supported by this proxy: start the response in the background and poll GET /v1/responses/{id}.', 'unsupported_parameter');
    if (body.store === false) throw invalidRequest('background', 'background requires store: a background response is fetched from the store.');
    state.backgroundId = `resp_${randomUUID().replaceAll('-', '')}`;
    body.store = true;
  }
  delete body.background;
  if (body.store === true || ((body.store === undefined || body.store === null) && storeByDefault)) state.store = store;
  // Taken over here: the dialect's own row would warn that no store keeps it.
  delete body.store;
  return state;
}

/** What the Response repeats of the fields the pipeline took over (the dialect repeats the rest). */
export function repeatState(request: NeutralRequest, state: ResponseState): void {
  const params = (request.echoedParams ??= {});
  if (state.previousResponseId !== undefined) params.previous_response_id = state.previousResponseId;
  if (state.backgroundId !== undefined) params.background = true;
  params.store = state.store !== undefined;
}

/**
 * Keeps the answer when the caller asked; a background response keeps the id it was given at the start.
 * A store that fails does not cost the caller the answer: it says `store: false`, and `failed` hears why.
 */
export async function keepAnswer(answer: Record<string, unknown>, state: ResponseState, failed: (error: unknown) => void = () => undefined): Promise<Record<string, unknown>> {
  if (state.backgroundId !== undefined) answer.id = state.backgroundId;
  if (!state.store) return answer;
  try {
    await state.store.put({ response: answer as StoredResponse['response'], input: state.input });
  } catch (error) {
    answer.store = false;
    failed(error);
  }
  return answer;
}

const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** A stored stream is kept when its last event carries the whole Response: before that event is written (undefined for the others). */
export function keepStreamed(event: Record<string, unknown>, state: ResponseState, failed?: (error: unknown) => void): Promise<void> | undefined {
  if (!FINAL_EVENTS.has(event.type as string) || !isRecord(event.response)) return undefined;
  return keepAnswer(event.response, state, failed).then(() => undefined);
}
