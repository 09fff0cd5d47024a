/**
 * A backend kind as the registry (adapters/registry.ts) lists it: how its
 * config is checked, its default settings, and how its adapter is built. A new
 * kind is one folder under adapters/ plus one line in the registry.
 */
import type { BackendCommon } from '../config/settings.js';
import type { Adapter } from './adapter.js';

export interface BackendKind<Settings extends BackendCommon = BackendCommon> {
  /** The `kind:` value in a config file. */
  name: string;
  /** A remote HTTP server (so it can also be the pass-through target), rather than something run in the proxy. */
  remote: boolean;
  /** The config keys this kind takes beyond the common ones (`kind`, `dropUnsupported`, the model format keys). */
  keys: readonly string[];
  /** Checks this kind's own keys (the common ones are checked already) and returns the typed settings; throws a ConfigError naming the key. */
  check(raw: Record<string, unknown>, key: string): Settings;
  /** The settings `dialect-proxy fields` and `translate --to` assume: the kind's documented defaults. */
  defaults: Settings;
  /** Builds the adapter; nothing loads or connects before `start`. */
  create(name: string, settings: Settings): Adapter | Promise<Adapter>;
}

/** Erases a kind's settings type for the registry: its `check` made the settings its `create` receives. */
export function defineKind<Settings extends BackendCommon>(kind: BackendKind<Settings>): BackendKind {
  return kind as unknown as BackendKind;
}
