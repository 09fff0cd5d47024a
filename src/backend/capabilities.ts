/** Questions the core asks of a backend's capabilities, answered from its field table. */
import type { NeutralField } from '../model/neutral-fields.js';
import type { Endpoint } from '../model/request.js';
import type { BackendCapabilities, SpokenEndpoint } from './adapter.js';
import { handlingOf, type FieldHandling } from './field-support.js';

const endpointOf = (spoken: SpokenEndpoint): Endpoint => (spoken === 'chat' ? 'chat' : 'text');

/** How the backend handles a field on each endpoint it serves. */
export function handlingsOf(capabilities: BackendCapabilities, field: NeutralField): FieldHandling[] {
  return capabilities.speaks.map((spoken) => handlingOf(capabilities.fields, field, endpointOf(spoken)));
}

/**
 * True when some endpoint the backend serves takes the field (the fate table's
 * question; the plan asks it of the endpoint the request goes to).
 */
export function supports(capabilities: BackendCapabilities, field: NeutralField): boolean {
  return handlingsOf(capabilities, field).some((handling) => handling.kind !== 'unsupported');
}

/** False when the proxy fans `n` out, one upstream request per choice. */
export function choicesAreNative(capabilities: BackendCapabilities): boolean {
  return handlingsOf(capabilities, 'choices').every((handling) => handling.kind !== 'emulate');
}
