/**
 * A stored conversation, rebuilt: each stored response keeps only its own
 * request's input and the id of the response it continued, so the turns before
 * a response are found by walking that chain back, at most `maxDepth`
 * responses (`responses.store.maxContinuationDepth`).
 */
import { earlierResponseNotFound, limitExceeded, previousResponseNotFound } from '../../../errors/catalogue.js';
import type { ResponseStore, StoredResponse } from '../../../response-store/response-store.js';

export interface ConversationQuery {
  store: ResponseStore;
  /** The newest response of the conversation: what `previous_response_id` names. */
  from: string;
  /** Only this owner's responses are found; another's reads as missing. */
  owner: string;
  maxDepth: number;
}

/**
 * Every item of the conversation up to and including response `from`, oldest first: each
 * response's input, then its output. Instructions are not carried over (as OpenAI does).
 * @example await conversationBefore({store, from: second.id, owner, maxDepth: 1000}) // [first's input..., first's output..., second's input..., second's output...]
 */
export async function conversationBefore({ store, from, owner, maxDepth }: ConversationQuery): Promise<unknown[]> {
  const chain: StoredResponse[] = [];
  for (let next: string | undefined = from; next !== undefined; next = chain[chain.length - 1].previousResponseId) {
    if (chain.length === maxDepth)
      throw limitExceeded(
        'previous_response_id',
        `The conversation of response '${from}' holds more than ${maxDepth} responses`,
        'responses.store.maxContinuationDepth',
      );
    const stored = await store.get(next, owner);
    if (!stored) throw chain.length === 0 ? previousResponseNotFound(from) : earlierResponseNotFound(from, next);
    chain.push(stored);
  }
  return chain.reverse().flatMap((stored) => [...stored.input, ...(Array.isArray(stored.response.output) ? stored.response.output : [])]);
}
