/**
 * `n` on a backend that generates one choice per request: n requests run
 * concurrently. With a `seed`, copy j uses seed + j, so the choices differ
 * and the whole answer is still reproducible (declared in the fate table).
 */
import type { NeutralRequest } from '../../../model/request.js';
import type { Engine } from './engine.js';
import { completeFanOut, streamFanOut, type FanOutPart } from './fan-out.js';

export function fanOutChoices(inner: Engine): Engine {
  return {
    complete: (request, context) => completeFanOut(inner, copies(request), context),
    stream: (request, context) => streamFanOut(inner, copies(request), context),
  };
}

function copies(request: NeutralRequest): FanOutPart[] {
  return Array.from({ length: request.choices }, (_, j) => {
    const seed = request.sampling.seed === undefined ? {} : { seed: request.sampling.seed + j };
    return { request: { ...request, choices: 1, sampling: { ...request.sampling, ...seed } }, choiceOffset: j };
  });
}
