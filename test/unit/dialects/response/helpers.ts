/** Small builders for the response-side tests: a neutral request, a token, an event source. */
import { emptyRequest, type Endpoint, type NeutralRequest } from '../../../../src/model/request.js';
import type { TokenLogprob } from '../../../../src/model/logprobs.js';
import type { StreamEvent, StreamEventOf } from '../../../../src/model/stream-event.js';

export function request(endpoint: Endpoint, overrides: Partial<NeutralRequest> = {}): NeutralRequest {
  return { ...emptyRequest(endpoint, 'm'), ...overrides };
}

/** A token with its alternatives, most likely first. */
export function token(text: string, logprob: number, top: [string, number][] = [], extra: Partial<TokenLogprob> = {}): TokenLogprob {
  return { token: text, logprob, top: top.map(([alternative, value]) => ({ token: alternative, logprob: value })), ...extra };
}

export async function* source(events: StreamEvent[]): AsyncGenerator<StreamEvent> {
  for (const event of events) yield event;
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const start: StreamEventOf<'response-start'> = { type: 'response-start', id: 'id-1', model: 'm', created: 7 };
