/**
 * Fireworks' `raw_output` (its namespace, src/model/vendor-data.ts), which the chat and completions dialects
 * put on a choice, or on the chunk that finishes it, when the caller asked for it.
 */
import type { NeutralRequest } from '../model/request.js';
import type { FireworksData } from '../model/vendor-data.js';

/** A result's choice, or a stream's choice-end. */
type Holder = { vendor?: { fireworks?: FireworksData['choice'] } };

/** @example rawOutputFor(request, event) // event.vendor.fireworks.rawOutput, when request.vendor.fireworks.rawOutput */
export function rawOutputFor(request: NeutralRequest, holder: Holder): Record<string, unknown> | undefined {
  return request.vendor?.fireworks?.rawOutput === true ? holder.vendor?.fireworks?.rawOutput : undefined;
}
