/**
 * The backends the fate table has a column for: one per configurable kind with
 * its default settings. Capabilities come from the real adapter (built, never
 * started, closed at once); so does the wire each kind would send (`toWire`).
 */
import type { BackendCapabilities } from '../../adapters/adapter.js';
import { createAdapter } from '../../adapters/create-adapter.js';
import type { BackendSettings } from '../configuration.js';
import type { NeutralRequest } from '../model/request.js';
import { toTextRequest } from '../pipeline/emulate/chat-over-text.js';

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

/** The table never connects: the URL only has to parse. */
const NOWHERE = 'http://backend.invalid/v1';

/** One column per kind, default settings (so `speaks` is each kind's default). */
export const DEFAULT_PROFILES: readonly BackendProfile[] = [
  { name: 'openai', settings: { kind: 'openai', url: NOWHERE } },
  { name: 'fireworks', settings: { kind: 'fireworks', url: NOWHERE } },
  { name: 'llama-server', settings: { kind: 'llama-server', url: NOWHERE } },
  { name: 'vllm', settings: { kind: 'vllm', url: NOWHERE } },
  { name: 'llama-cpp', settings: { kind: 'llama-cpp', model: 'builtin' } },
];

/** Builds each profile's adapter to read its capabilities, then closes it (no worker starts, nothing connects). */
export async function loadProfiles(profiles: readonly BackendProfile[] = DEFAULT_PROFILES): Promise<LoadedProfile[]> {
  const loaded: LoadedProfile[] = [];
  for (const profile of profiles) {
    const adapter = await createAdapter(profile.name, profile.settings);
    try {
      // The worker takes text: should a chat request reach it, the plan's ChatML rendering stands in.
      const toWire = profile.settings.kind === 'llama-cpp'
        ? (request: NeutralRequest) => adapter.toWire(request.endpoint === 'chat' ? toTextRequest(request, {}) : request)
        : adapter.toWire;
      loaded.push({ ...profile, capabilities: adapter.capabilities, toWire });
    } finally {
      await adapter.close?.();
    }
  }
  return loaded;
}
