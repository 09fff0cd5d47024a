/**
 * Every backend kind the proxy knows, found by its `kind:` name. A new kind is
 * one folder under adapters/ and one line here.
 */
import type { BackendKind } from '../src/backend/backend-kind.js';
import { fireworksKind } from './fireworks/fireworks-adapter.js';
import { llamaCppKind } from './llama-cpp/settings.js';
import { llamaServerKind } from './llama-server/llama-server-adapter.js';
import { openaiKind } from './openai/openai-adapter.js';
import { vllmKind } from './vllm/vllm-adapter.js';

export const BACKEND_KINDS: readonly BackendKind[] = [llamaCppKind, openaiKind, fireworksKind, llamaServerKind, vllmKind];

export function findKind(name: string): BackendKind | undefined {
  return BACKEND_KINDS.find((kind) => kind.name === name);
}

export type { RemoteBackendSettings } from './remote-settings.js';
export type { LlamaServerSettings } from './llama-server/llama-server-adapter.js';
export type { LlamaCppSettings } from './llama-cpp/settings.js';
