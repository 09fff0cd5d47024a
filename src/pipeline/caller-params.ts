/**
 * An upstream's refusal names a field of the request the proxy sent, which may
 * not be the caller's (`messages` for a completions caller on a chat-only
 * backend, `max_completion_tokens` for a caller who sent `max_tokens`). The
 * `param` is mapped back to the caller's own field through the request's
 * origins and the backend's table, or dropped: an error never names a field
 * the caller did not send.
 */
import type { BackendCapabilities } from '../backend/adapter.js';
import { handlingOf } from '../backend/field-support.js';
import { ProxyError } from '../errors/proxy-error.js';
import { NEUTRAL_FIELD_NAMES, paramOf } from '../model/neutral-fields.js';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import type { StreamEvent } from '../model/stream-event.js';
import type { Engine } from './emulate/engine.js';

/** The caller's name for an upstream `param`, or null when the caller sent no such field. */
export function callerParam(param: string, request: NeutralRequest, capabilities: BackendCapabilities, upstream: Endpoint): string | null {
  const headOf = (name: string) => name.split(/[.[]/)[0];
  const head = headOf(param);
  // The caller's top-level fields (an origin may be nested: `thinking.type`).
  const sent = new Set([...Object.values(request.origins), ...Object.keys(request.passthrough)].filter((name): name is string => typeof name === 'string').map(headOf));
  if (sent.has(head)) return param;
  // The conversation itself: the caller's prompt or messages, whichever it sent.
  if (head === 'messages' || head === 'prompt') return request.origins.messages ?? request.origins.prompt ?? null;
  for (const field of NEUTRAL_FIELD_NAMES) {
    const handling = handlingOf(capabilities.fields, field, upstream);
    if (handling.kind === 'copy' && handling.wire === head) {
      const own = paramOf(request, field);
      return sent.has(headOf(own)) ? own : null;
    }
  }
  return null;
}

function renamed(error: ProxyError, request: NeutralRequest, capabilities: BackendCapabilities, upstream: Endpoint): ProxyError {
  if (error.param === null || error.status < 400 || error.status >= 500) return error;
  const param = callerParam(error.param, request, capabilities, upstream);
  if (param === error.param) return error;
  // `detail` is rebuilt from the new param (the completions dialect's `loc`).
  return new ProxyError({
    status: error.status, type: error.type, message: error.message, param, code: error.code,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    cause: error,
  });
}

/** The engine whose refusals name the caller's fields. */
export function nameCallerFields(inner: Engine, capabilities: BackendCapabilities, upstream: Endpoint): Engine {
  const fix = (error: unknown, request: NeutralRequest) => (error instanceof ProxyError ? renamed(error, request, capabilities, upstream) : error);
  return {
    complete: (request, context) => inner.complete(request, context).catch((error: unknown) => { throw fix(error, request); }),
    stream(request, context) {
      const events = inner.stream(request, context);
      return {
        [Symbol.asyncIterator]() {
          const iterator = events[Symbol.asyncIterator]();
          return {
            next: async (): Promise<IteratorResult<StreamEvent>> => {
              try {
                const result = await iterator.next();
                if (!result.done && result.value.type === 'error') return { done: false, value: { type: 'error', error: fix(result.value.error, request) as ProxyError } };
                return result;
              } catch (error) {
                throw fix(error, request);
              }
            },
            return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
          };
        },
      };
    },
  };
}
