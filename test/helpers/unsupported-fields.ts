/** The neutral fields a backend refuses on every endpoint it serves: the complement of what its field table supports. */
import type { BackendCapabilities } from '../../src/backend/adapter.js';
import { supports } from '../../src/backend/capabilities.js';
import { NEUTRAL_FIELD_NAMES, type NeutralField } from '../../src/model/neutral-fields.js';

export function unsupportedFields(capabilities: BackendCapabilities): NeutralField[] {
  return NEUTRAL_FIELD_NAMES.filter((field) => !supports(capabilities, field)).sort();
}
