/**
 * `kind: openai`: strict OpenAI. Fields OpenAI does not accept are never sent;
 * its field table (fields.ts) tells the plan which to reject (or drop) first.
 */
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { defineKind } from '../../src/backend/backend-kind.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import { checkRemoteSettings, NOWHERE, REMOTE_KEYS, type AdapterSettings, type RemoteBackendSettings } from '../remote-settings.js';
import { OPENAI_EFFORTS, OPENAI_TABLE } from './fields.js';
import { OpenAIChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { toWireBody } from './to-wire-body.js';

export function openAICapabilities(settings: Partial<RemoteBackendSettings>): BackendCapabilities {
  return {
    ...OPENAI_TABLE,
    speaks: settings.speaks ?? ['chat'],
    maxTopLogprobs: settings.maxTopLogprobs ?? 20,
    efforts: new Set(OPENAI_EFFORTS),
  };
}

/**
 * @example
 * const openai = createOpenAIAdapter({ kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY });
 * const result = await openai.complete(request, { signal, requestId: 'req-1' });
 */
export function createOpenAIAdapter(settings: AdapterSettings<RemoteBackendSettings>, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'openai',
    settings,
    capabilities: openAICapabilities(settings),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult,
      chunkReader: (request) => new OpenAIChunkReader(request),
    },
  });
}

export const openaiKind = defineKind<RemoteBackendSettings>({
  name: 'openai',
  remote: true,
  keys: REMOTE_KEYS,
  check: checkRemoteSettings,
  defaults: { kind: 'openai', url: NOWHERE },
  create: (name, settings) => createOpenAIAdapter(settings, { name }),
});
