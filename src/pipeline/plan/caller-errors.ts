/**
 * An upstream's refusal names a field of the request the proxy sent, which may
 * not be the caller's (`messages` for a completions caller on a chat-only
 * backend, `max_completion_tokens` for a caller who sent `max_tokens`). The
 * `param` is mapped back to the caller's own field by inverting the field
 * plan, or dropped: an error never names a field the caller did not send.
 */
import { callerFieldOf, type FieldPlan } from '../../backend/field-plan.js';
import { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import type { StreamBatches, StreamEvent } from '../../model/stream-event.js';
import type { Engine } from './emulate/engine.js';

/** The caller's name for an upstream `param`, or null when the caller sent no such field. */
export function callerParam(param: string, request: NeutralRequest, plan: FieldPlan): string | null {
  const headOf = (name: string) => name.split(/[.[]/)[0];
  const head = headOf(param);
  // The caller's top-level fields (an origin may be nested: `thinking.type`).
  const sent = new Set(
    [...Object.values(request.origins), ...Object.keys(request.passthrough)]
      .filter((name): name is string => typeof name === 'string')
      .map(headOf),
  );
  if (sent.has(head)) return param;
  // The conversation itself: the caller's prompt or messages, whichever it sent.
  if (head === 'messages' || head === 'prompt') return request.origins.messages ?? request.origins.prompt ?? null;
  const own = callerFieldOf(plan, param);
  return own !== undefined && sent.has(headOf(own)) ? own : null;
}

/** The refusal as the caller should read it: its `param` one the caller sent, or none. */
export function callerErrors(plan: () => FieldPlan): (error: ProxyError, request: NeutralRequest) => ProxyError {
  return (error, request) => {
    if (error.param === null || error.status < 400 || error.status >= 500) return error;
    const param = callerParam(error.param, request, plan());
    if (param === error.param) return error;
    // `detail` is rebuilt from the new param (the completions dialect's `loc`).
    return error.withParam(param);
  };
}

/**
 * The engine whose failures name the caller's fields: `complete`'s rejection
 * and a stream's error events. The one place an upstream error is renamed; a
 * batch without an error passes untouched, with no generator layer.
 */
export function inCallerTerms(inner: Engine, rename: (error: ProxyError) => ProxyError): Engine {
  return {
    complete: (request, context) =>
      inner.complete(request, context).catch((error: unknown) => {
        throw error instanceof ProxyError ? rename(error) : error;
      }),
    stream: (request, context) => renamedStream(inner.stream(request, context), rename),
  };
}

function renamedStream(batches: StreamBatches, rename: (error: ProxyError) => ProxyError): StreamBatches {
  const renameErrors = (result: IteratorResult<StreamEvent[]>) => {
    if (result.done) return result;
    const batch = result.value;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i];
      if (event.type === 'error') batch[i] = { type: 'error', error: rename(event.error) };
    }
    return result;
  };
  return {
    [Symbol.asyncIterator]() {
      const iterator = batches[Symbol.asyncIterator]();
      return {
        next: () =>
          iterator.next().then(renameErrors, (thrown: unknown) => {
            throw thrown instanceof ProxyError ? rename(thrown) : thrown;
          }),
        return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
      };
    },
  };
}
