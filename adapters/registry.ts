/**
 * Every backend kind the proxy knows, found by its `kind:` name. A new kind is
 * one folder under adapters/ (its `BackendKind` in kind.ts) and one line here.
 */
import type { BackendKind } from '../src/backend/backend-kind.js';
import { anthropicKind } from './anthropic/kind.js';
import { fireworksKind } from './fireworks/kind.js';
import { geminiKind } from './gemini/kind.js';
import { llamaCppKind } from './llama-cpp/kind.js';
import { llamaServerKind } from './llama-server/kind.js';
import { openaiKind } from './openai/kind.js';
import { vllmKind } from './vllm/kind.js';

export const BACKEND_KINDS: readonly BackendKind[] = [
  llamaCppKind,
  openaiKind,
  fireworksKind,
  llamaServerKind,
  vllmKind,
  anthropicKind,
  geminiKind,
];

export function findKind(name: string): BackendKind | undefined {
  return BACKEND_KINDS.find((kind) => kind.name === name);
}

export type { RemoteBackendSettings } from './remote-settings.js';
export type { LlamaServerSettings } from './llama-server/llama-server-adapter.js';
export type { LlamaCppSettings } from './llama-cpp/settings.js';
export type { AnthropicSettings } from './anthropic/settings.js';
export type { GeminiSettings } from './gemini/settings.js';
