/** `kind: fireworks`: `/completions` and `/chat/completions` with every Fireworks extension (fields.ts). */
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { defineKind } from '../../src/backend/backend-kind.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import { checkRemoteSettings, NOWHERE, REMOTE_KEYS, type AdapterSettings, type RemoteBackendSettings } from '../remote-settings.js';
import { FIREWORKS_EFFORTS, FIREWORKS_TABLE } from './fields.js';
import { fireworksChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { toWireBody } from './to-wire-body.js';

export function fireworksCapabilities(settings: Partial<RemoteBackendSettings>): BackendCapabilities {
  return {
    ...FIREWORKS_TABLE,
    speaks: settings.speaks ?? ['completions', 'chat'],
    // The deployment's `--max-logprobs`, 5 unless configured.
    maxTopLogprobs: settings.maxTopLogprobs ?? 5,
    efforts: new Set(FIREWORKS_EFFORTS),
  };
}

/**
 * @example
 * const fireworks = createFireworksAdapter({ kind: 'fireworks', url: 'https://api.fireworks.ai/inference/v1', apiKey: process.env.FIREWORKS_API_KEY });
 * for await (const batch of fireworks.stream(request, { signal, requestId: 'req-1' })) { ... } // each packet's events
 */
export function createFireworksAdapter(settings: AdapterSettings<RemoteBackendSettings>, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'fireworks',
    settings,
    capabilities: fireworksCapabilities(settings),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult,
      chunkReader: fireworksChunkReader,
    },
  });
}

export const fireworksKind = defineKind<RemoteBackendSettings>({
  name: 'fireworks',
  remote: true,
  keys: REMOTE_KEYS,
  check: checkRemoteSettings,
  defaults: { kind: 'fireworks', url: NOWHERE },
  create: (name, settings) => createFireworksAdapter(settings, { name }),
});
