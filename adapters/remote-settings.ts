/** The settings every remote backend kind takes (`openai`, `fireworks`, `llama-server`, `vllm`), and their check. */
import type { SpokenEndpoint } from '../src/backend/adapter.js';
import { allowKeys, ConfigError, integerField, objectAt, optionalString, stringList } from '../src/config/config-checks.js';
import type { BackendCommon } from '../src/config/settings.js';
import { HEALTH_DEFAULTS, type HealthSettings } from './replica-health.js';
import { EJECTION_DEFAULTS, type EjectionSettings } from './replica-pool.js';
import type { RemoteRetries } from './retry-policy.js';

export type { RemoteRetries } from './retry-policy.js';

/**
 * One remote backend.
 *
 * @example
 * const openai: RemoteBackendSettings = {
 *   kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, speaks: ['chat'],
 * };
 */
export interface RemoteBackendSettings extends BackendCommon {
  /** Base URL up to and including the version, without the endpoint: `https://api.fireworks.ai/inference/v1`. Either this or `urls`. */
  url?: string;
  /** Replicas of one model server (each a base URL like `url`), instead of `url`: see adapters/replica-pool.ts. */
  urls?: string[];
  /** With `urls`: an active probe of each replica (off when unset). */
  health?: Partial<HealthSettings> & { path: string };
  /** With `urls`: when failing requests take a replica out of service (EJECTION_DEFAULTS when unset). */
  ejection?: Partial<EjectionSettings>;
  /** Sent as `authorization: Bearer <apiKey>`; never logged, never echoed in an error. */
  apiKey?: string;
  /** Upstream endpoints the backend serves; the other dialect is translated. Default: each kind's own. */
  speaks?: SpokenEndpoint[];
  /** The most top logprobs the backend returns per token (the deployment's `--max-logprobs`). Default: each kind's own. */
  maxTopLogprobs?: number;
  /** Extra headers sent with every upstream request (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /** Time limits per phase of one exchange (REMOTE_DEFAULTS.timeouts when unset). */
  timeouts?: Partial<RemoteTimeouts>;
  /** Retries before anything has reached the caller (REMOTE_DEFAULTS.retries when unset). */
  retries?: Partial<RemoteRetries>;
  /** Requests in flight to this backend at once; more wait in a queue. Default: no limit. */
  maxConcurrent?: number;
  /** Requests that may wait for a slot (with `maxConcurrent`); beyond it a 429 with `Retry-After`. Default 16 x maxConcurrent. */
  queueLimit?: number;
  /** Model names this backend serves, listed by `GET /v1/models` for a wildcard route to it. */
  models?: string[];
}

export interface RemoteTimeouts {
  /** Opening the TCP (and TLS) connection. */
  connectMs: number;
  /** From sending the request to the response headers: a non-streamed answer's whole generation, a stream's start. */
  firstByteMs: number;
  /** The longest silence between two chunks of the body. */
  idleMs: number;
  /** The whole exchange, stream included. */
  totalMs: number;
}

/**
 * Generous on purpose: reasoning models may think for minutes before their
 * first token (and, not streamed, before their headers), and stay silent while
 * they think in a stream.
 */
export const REMOTE_DEFAULTS: { timeouts: RemoteTimeouts; retries: RemoteRetries } = {
  timeouts: { connectMs: 10_000, firstByteMs: 600_000, idleMs: 300_000, totalMs: 1_800_000 },
  retries: { attempts: 2, initialDelayMs: 500, maxDelayMs: 10_000 },
};

/** What an adapter reads: the settings, with or without the `kind` that picked it. */
export type AdapterSettings<Settings extends BackendCommon> = Omit<Settings, 'kind'> & { kind?: string };

/** The keys `checkRemoteSettings` reads. */
export const REMOTE_KEYS: readonly string[] = [
  'url',
  'urls',
  'health',
  'ejection',
  'apiKey',
  'speaks',
  'maxTopLogprobs',
  'headers',
  'timeouts',
  'retries',
  'maxConcurrent',
  'queueLimit',
  'models',
];

export function checkRemoteSettings(backend: Record<string, unknown>, key: string): RemoteBackendSettings {
  checkUrls(backend, key);
  optionalString(backend.apiKey, `${key}.apiKey`);
  if (backend.speaks !== undefined) {
    const speaks = stringList(backend.speaks, `${key}.speaks`);
    if (speaks.length === 0 || speaks.some((s) => s !== 'chat' && s !== 'completions')) {
      throw new ConfigError(`${key}.speaks`, 'must list chat and/or completions');
    }
  }
  integerField(backend, 'maxTopLogprobs', key, 0, 20);
  if (backend.timeouts !== undefined)
    integerFields(objectAt(backend.timeouts, `${key}.timeouts`), `${key}.timeouts`, Object.keys(REMOTE_DEFAULTS.timeouts), 1);
  if (backend.retries !== undefined) {
    const retries = objectAt(backend.retries, `${key}.retries`);
    integerFields(retries, `${key}.retries`, Object.keys(REMOTE_DEFAULTS.retries), 0);
    const { initialDelayMs, maxDelayMs } = { ...REMOTE_DEFAULTS.retries, ...retries } as RemoteRetries;
    if (initialDelayMs > maxDelayMs) throw new ConfigError(`${key}.retries.initialDelayMs`, `must not exceed maxDelayMs (${maxDelayMs})`);
  }
  integerField(backend, 'maxConcurrent', key, 1);
  integerField(backend, 'queueLimit', key, 0);
  if (backend.queueLimit !== undefined && backend.maxConcurrent === undefined)
    throw new ConfigError(`${key}.queueLimit`, 'needs maxConcurrent (without it nothing waits)');
  if (backend.models !== undefined) stringList(backend.models, `${key}.models`);
  if (backend.headers !== undefined) {
    for (const [name, value] of Object.entries(objectAt(backend.headers, `${key}.headers`)))
      optionalString(value, `${key}.headers.${name}`);
  }
  return backend as unknown as RemoteBackendSettings;
}

const HTTP_URL = /^https?:\/\/[^/]/;

/** `url`, or `urls` (a pool) with its `health` and `ejection`. */
function checkUrls(backend: Record<string, unknown>, key: string): void {
  const url = optionalString(backend.url, `${key}.url`);
  if (backend.urls === undefined) {
    if (!url || !HTTP_URL.test(url))
      throw new ConfigError(`${key}.url`, 'required: an http(s) URL such as https://api.openai.com/v1 (or urls: a list of replicas)');
    for (const name of ['health', 'ejection']) {
      if (backend[name] !== undefined) throw new ConfigError(`${key}.${name}`, 'only for a pool of replicas (urls)');
    }
    return;
  }
  if (backend.url !== undefined) throw new ConfigError(`${key}.urls`, 'cannot be combined with url: list every replica under urls');
  const urls = stringList(backend.urls, `${key}.urls`);
  if (urls.length === 0) throw new ConfigError(`${key}.urls`, 'must list at least one http(s) URL');
  const seen = new Set<string>();
  urls.forEach((item, i) => {
    if (!HTTP_URL.test(item) || !URL.canParse(item))
      throw new ConfigError(`${key}.urls[${i}]`, 'must be an http(s) URL such as http://10.0.0.1:8000/v1');
    const normal = item.replace(/\/+$/, '');
    if (seen.has(normal)) throw new ConfigError(`${key}.urls[${i}]`, `lists ${item} twice`);
    seen.add(normal);
  });
  if (new Set(urls.map((item) => new URL(item).protocol)).size > 1)
    throw new ConfigError(`${key}.urls`, 'must all be http or all be https');
  if (backend.health !== undefined) {
    const health = objectAt(backend.health, `${key}.health`);
    allowKeys(health, `${key}.health`, ['path', ...Object.keys(HEALTH_DEFAULTS)]);
    const path = optionalString(health.path, `${key}.health.path`);
    if (!path)
      throw new ConfigError(
        `${key}.health.path`,
        'required: the path each replica answers 200 on when ready, e.g. /health (llama-server, vLLM)',
      );
    integerField(health, 'intervalMs', `${key}.health`, 10);
    integerField(health, 'timeoutMs', `${key}.health`, 1);
    integerField(health, 'failures', `${key}.health`, 1);
  }
  if (backend.ejection !== undefined) {
    const ejection = objectAt(backend.ejection, `${key}.ejection`);
    allowKeys(ejection, `${key}.ejection`, Object.keys(EJECTION_DEFAULTS));
    integerField(ejection, 'failures', `${key}.ejection`, 0);
    integerField(ejection, 'baseMs', `${key}.ejection`, 1);
    integerField(ejection, 'maxMs', `${key}.ejection`, 1);
    const { baseMs, maxMs } = { ...EJECTION_DEFAULTS, ...ejection } as EjectionSettings;
    if (baseMs > maxMs) throw new ConfigError(`${key}.ejection.baseMs`, `must not exceed maxMs (${maxMs})`);
  }
}

/** A mapping of integer settings: only `names`, each at least `min`. */
function integerFields(object: Record<string, unknown>, key: string, names: readonly string[], min: number): void {
  allowKeys(object, key, names);
  for (const name of names) integerField(object, name, key, min);
}

/** The fate table and `translate --to` never connect: the URL only has to parse. */
export const NOWHERE = 'http://backend.invalid/v1';

/** A remote kind's `warmUp.pointedAt` (src/backend/backend-kind.ts): one URL, not a pool; no real key, no retries, no queue. */
export function pointedAt<Settings extends RemoteBackendSettings>(settings: Settings, url: string): Settings {
  const {
    urls: _urls,
    health: _health,
    ejection: _ejection,
    apiKey,
    retries: _retries,
    maxConcurrent: _max,
    queueLimit: _queue,
    ...own
  } = settings;
  return { ...own, url, ...(apiKey === undefined ? {} : { apiKey: 'not-the-real-key' }), retries: { attempts: 0 } } as Settings;
}
