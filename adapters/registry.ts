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

const KINDS = [llamaCppKind, openaiKind, fireworksKind, llamaServerKind, vllmKind, anthropicKind, geminiKind] as const;

export const BACKEND_KINDS: readonly BackendKind[] = KINDS;

export function findKind(name: string): BackendKind | undefined {
  return BACKEND_KINDS.find((kind) => kind.name === name);
}

/** Each listed kind's settings, by its `kind:` name: read from the list, so a kind's line here is its entry. */
export type BackendSettingsByKind = { [Kind in (typeof KINDS)[number] as Kind['name']]: Kind['defaults'] };

/** A backend of any kind listed here, as a config file sets it. */
export type BackendSettings = BackendSettingsByKind[keyof BackendSettingsByKind];

/** What every remote kind takes (adapters/remote-settings.ts), each adding its own. */
export type { RemoteBackendSettings } from './remote-settings.js';
