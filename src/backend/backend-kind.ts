/**
 * A backend kind as the registry (adapters/registry.ts) lists it: how its
 * config is checked, its default settings, and how its adapter is built. A new
 * kind is one folder under adapters/ plus one line in the registry.
 */
import type { Worker } from 'node:cluster';
import type { BackendCommon } from '../config/settings.js';
import type { Adapter } from './adapter.js';

export interface BackendKind<Settings extends BackendCommon = BackendCommon, Name extends string = string> {
  /** The `kind:` value in a config file. */
  name: Name;
  /**
   * Its backends' provider as the OpenTelemetry GenAI conventions name it (`gen_ai.provider.name`), where they
   * have a well-known name for it (`gcp.gemini`, `llama.cpp`); the kind's own name otherwise, as they allow.
   */
  provider?: string;
  /** A remote HTTP server (so it can also be the pass-through target), rather than something run in the proxy. */
  remote: boolean;
  /** The config keys this kind takes beyond the common ones (`kind`, `dropUnsupported`, the model format keys). */
  keys: readonly string[];
  /** Checks this kind's own keys (the common ones are checked already) and returns the typed settings; throws a ConfigError naming the key. */
  check(raw: Record<string, unknown>, key: string): Settings;
  /** The settings `dialect-proxy fields` and `translate --to` assume: the kind's documented defaults. */
  defaults: Settings;
  /**
   * What a server start needs on this machine, checked before it listens (the `llama-cpp` kind: its
   * model file). Throws a ConfigError naming the key. The offline commands never call it.
   */
  checkBeforeStart?(settings: Settings, key: string): void;
  /**
   * A remote kind whose server takes its key (and version) in headers of its own, not
   * `Authorization: Bearer` (Anthropic: `x-api-key`, `anthropic-version`): what the pass-through sends.
   */
  relayHeaders?(settings: Settings): Record<string, string>;
  /**
   * A remote kind: how the warm-up (src/runtime/warm-up.ts) sends its synthetic requests through the kind's own
   * code to a loopback server of canned answers (src/runtime/canned-upstream.ts), never to the real backend.
   */
  warmUp?: WarmUpTarget<Settings>;
  /**
   * A server start's slow first step, begun before the proxy's own modules load (the `llama-cpp`
   * kind forks its worker process, which loads llama.cpp meanwhile); `start` takes it over. Never throws.
   */
  startEarly?(settings: Settings): void;
  /** Builds the adapter; nothing loads or connects before `start`. */
  create(name: string, settings: Settings): Adapter | Promise<Adapter>;
  /** A kind that runs its model in the proxy: how `--workers N` keeps one engine for all N processes (src/http/cluster.ts). */
  sharedEngine?: SharedEngine<Settings>;
}

/** A remote kind's side of the warm-up: its backend pointed elsewhere, and that elsewhere's answers in its wire. */
export interface WarmUpTarget<Settings extends BackendCommon = BackendCommon> {
  /** The same backend at `url` instead: one server with none of the real one's key, retries or queue. */
  pointedAt(settings: Settings, url: string): Settings;
  /** What its server would answer to `call`, in the kind's wire; undefined for a path it has no answer for (a 404). */
  cannedAnswer(call: CannedCall): CannedAnswer | undefined;
}

/** A request the warm-up's upstream received for a kind: its path under the backend's `url` (with the query), its JSON body. */
export interface CannedCall {
  path: string;
  body: Record<string, unknown>;
}

/** One JSON body, or a stream's server-sent events, each its own write (whole `data:` frames). */
export type CannedAnswer = { json: Record<string, unknown> } | { events: readonly string[] };

/**
 * Under `dialect-proxy --workers N` (src/http/cluster.ts): one engine per backend, owned
 * by the primary process, which every worker's adapter uses over the cluster's IPC
 * channel, instead of N engines (N copies of the model). `serve` and `relay` load
 * the kind's engine modules only when called: a config without such a backend
 * loads nothing.
 */
export interface SharedEngine<Settings extends BackendCommon = BackendCommon> {
  /** What the log calls the engine: `llama.cpp`. */
  label: string;
  /** Whether this backend's engine is shared (otherwise each worker builds its own, as in one process). */
  shares(settings: Settings): boolean;
  /** In the primary: one engine per backend named, served to the workers; nothing starts before `start`. */
  serve(backends: ReadonlyMap<string, Settings>): Promise<ServedEngines>;
  /** In a worker, before its adapters are built: the backends named use the primary's engine. */
  relay(backends: ReadonlySet<string>): Promise<void>;
}

/** The primary's engines: `watch` each worker forked, `close` once they have all exited. */
export interface ServedEngines {
  /** Starts every engine now (the model loads while the workers come up); rejects with the first failure. */
  start(): Promise<void>;
  /** Answers this worker's requests for the engines. */
  watch(worker: Pick<Worker, 'id' | 'on' | 'send' | 'isConnected'>): void;
  close(): Promise<void>;
}

/**
 * A kind as its folder declares it: its settings are what its `check` returns, its name the literal it
 * gives. The registry reads both, so the public settings types follow its list (adapters/registry.ts).
 * @example export const vllmKind = defineKind({ name: 'vllm', remote: true, keys: REMOTE_KEYS, check: checkRemoteSettings, defaults, create });
 */
export function defineKind<Settings extends BackendCommon, const Name extends string>(
  kind: BackendKind<NoInfer<Settings>, Name> & { check(raw: Record<string, unknown>, key: string): Settings },
): BackendKind<Settings, Name> {
  return kind;
}
