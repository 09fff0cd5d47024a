/**
 * `kind: vllm`: vLLM's OpenAI-compatible server, `/v1/chat/completions` and
 * `/v1/completions` with the extra parameters its protocol declares
 * (vllm/entrypoints/openai/{chat_completion,completion}/protocol.py).
 */
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { defineKind } from '../../src/backend/backend-kind.js';
import { OpenAIChunkReader } from '../openai/from-wire-chunks.js';
import { fromWireResult } from '../openai/from-wire-result.js';
import { createRemoteAdapter } from '../remote-adapter.js';
import { checkRemoteSettings, NOWHERE, REMOTE_KEYS, type AdapterSettings, type RemoteBackendSettings } from '../remote-settings.js';
import { VLLM_EFFORTS, VLLM_TABLE } from './fields.js';
import { toWireBody } from './to-wire-body.js';
import { vllmExtras } from './wire-extras.js';

export function vllmCapabilities(settings: Partial<RemoteBackendSettings>): BackendCapabilities {
  return {
    ...VLLM_TABLE,
    speaks: settings.speaks ?? ['completions', 'chat'],
    // The server's `--max-logprobs`, 20 unless configured.
    maxTopLogprobs: settings.maxTopLogprobs ?? 20,
    efforts: new Set(VLLM_EFFORTS),
  };
}

/**
 * @example
 * const vllm = createVllmAdapter({ kind: 'vllm', url: 'http://gpu-1:8000/v1' }, { name: 'gpu' });
 * for await (const batch of vllm.stream(request, { signal, requestId: 'req-1' })) { ... } // each packet's events
 */
export function createVllmAdapter(settings: AdapterSettings<RemoteBackendSettings>, options: { name?: string } = {}): Adapter {
  return createRemoteAdapter({
    name: options.name ?? 'vllm',
    settings,
    capabilities: vllmCapabilities(settings),
    codec: {
      toWireBody: (request, { stream }) => toWireBody(request, { stream }),
      fromWireResult: (body, request) => fromWireResult(body, request, vllmExtras),
      chunkReader: (request) => new OpenAIChunkReader(request, vllmExtras),
    },
  });
}

export const vllmKind = defineKind<RemoteBackendSettings>({
  name: 'vllm',
  remote: true,
  keys: REMOTE_KEYS,
  check: checkRemoteSettings,
  defaults: { kind: 'vllm', url: NOWHERE },
  create: (name, settings) => createVllmAdapter(settings, { name }),
});
