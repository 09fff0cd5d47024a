/**
 * llama-server's error bodies carry the HTTP status as a numeric `code` and no
 * `param` (captures README, deviation 17), so map-upstream-error keeps only the
 * status and the message. Two messages say more, and become a `param` / `code`:
 * a field out of range (`Field 'n': Value must be between 1 <= value <= 4`,
 * `n` above the server's slot count) and a prompt longer than a slot's context.
 */
import { ProxyError } from '../../src/errors/proxy-error.js';
import type { NeutralPath } from '../../src/model/neutral-path.js';
import type { NeutralRequest } from '../../src/model/request.js';

/** Wire fields whose caller-side name may differ: [neutral path whose origin names it, the usual caller name]. */
const CALLER_FIELD: Readonly<Record<string, readonly [NeutralPath, string]>> = {
  n: ['choices', 'n'],
  max_tokens: ['limits.maxTokens', 'max_tokens'],
  repeat_penalty: ['sampling.repetitionPenalty', 'repetition_penalty'],
  mirostat_tau: ['sampling.mirostat.target', 'mirostat_target'],
  mirostat_eta: ['sampling.mirostat.learningRate', 'mirostat_lr'],
  logprobs: ['logprobs.top', 'logprobs'],
  top_logprobs: ['logprobs.top', 'top_logprobs'],
};

const FIELD = /^Field '([^']+)'/;
const CONTEXT = /exceeds the available context size|larger than the max context size/;

/**
 * @example refineError(invalidRequest(null, "Field 'n': Value must be between 1 <= value <= 4, but got 8"), request).param // 'n'
 */
export function refineError(error: ProxyError, request: NeutralRequest): ProxyError {
  if (error.status !== 400 || error.param !== null) return error;
  const field = FIELD.exec(error.message)?.[1];
  if (field !== undefined) {
    const [path, usual] = CALLER_FIELD[field] ?? [undefined, field];
    return error.withParam((path === undefined ? undefined : request.origins[path]) ?? usual);
  }
  // The caller's own field: its prompt or its messages, whichever it sent (never the translated request's).
  if (CONTEXT.test(error.message))
    return error.withParam(request.origins.prompt ?? request.origins.messages ?? null, 'context_length_exceeded');
  return error;
}
