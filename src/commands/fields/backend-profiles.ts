/**
 * The backends the fate table has a column for: one per kind in the registry,
 * with its default settings. Capabilities come from the real adapter (built,
 * never started, closed at once); so does the wire each kind would send (`toWire`).
 */
import { BACKEND_KINDS, findKind } from '../../../adapters/registry.js';
import type { BackendCapabilities } from '../../backend/adapter.js';
import type { BackendSettings } from '../../runtime/configuration.js';
import type { NeutralRequest } from '../../model/request.js';
import { toTextRequest } from '../../pipeline/plan/emulate/chat-over-text.js';

export interface BackendProfile {
  /** The column's name. */
  name: string;
  settings: BackendSettings;
}

/** A profile with what the table needs to dry-run it. */
export interface LoadedProfile extends BackendProfile {
  capabilities: BackendCapabilities;
  /** The body (or generate request) the adapter would send for a neutral request it receives. */
  toWire(request: NeutralRequest): Record<string, unknown>;
}

/**
 * One column per kind, default settings (so `speaks` is each kind's default), in the registry's order; the
 * bundled worker's column comes last: it is the one that runs in the proxy (`remote: false`).
 */
export const DEFAULT_PROFILES: readonly BackendProfile[] = [
  ...BACKEND_KINDS.filter(({ remote }) => remote),
  ...BACKEND_KINDS.filter(({ remote }) => !remote),
].map((kind) => ({ name: kind.name, settings: kind.defaults as BackendSettings }));

/** Builds each profile's adapter to read its capabilities, then closes it (no worker starts, nothing connects). */
export async function loadProfiles(profiles: readonly BackendProfile[] = DEFAULT_PROFILES): Promise<LoadedProfile[]> {
  const loaded: LoadedProfile[] = [];
  for (const profile of profiles) {
    const kind = findKind(profile.settings.kind);
    if (!kind) throw new Error(`fields: no backend kind "${profile.settings.kind}"`);
    const adapter = await kind.create(profile.name, profile.settings);
    try {
      // A backend that takes only text (the worker): should a chat request reach it, the plan's ChatML rendering stands in.
      const toWire = !adapter.capabilities.speaks.includes('chat')
        ? (request: NeutralRequest) => adapter.toWire(request.endpoint === 'chat' ? toTextRequest(request, {}) : request)
        : adapter.toWire;
      loaded.push({ ...profile, capabilities: adapter.capabilities, toWire });
    } finally {
      await adapter.close?.();
    }
  }
  return loaded;
}
