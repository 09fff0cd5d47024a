/** The settings every remote backend kind takes (`openai`, `fireworks`, `llama-server`, `vllm`), and their check. */
import type { SpokenEndpoint } from '../src/backend/adapter.js';
import { ConfigError, integerField, objectAt, optionalString, stringList } from '../src/config/config-checks.js';
import type { BackendCommon } from '../src/config/settings.js';

/**
 * One remote backend.
 *
 * @example
 * const openai: RemoteBackendSettings = {
 *   kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, speaks: ['chat'],
 * };
 */
export interface RemoteBackendSettings extends BackendCommon {
  /** Base URL up to and including the version, without the endpoint: `https://api.fireworks.ai/inference/v1`. */
  url: string;
  /** Sent as `authorization: Bearer <apiKey>`; never logged, never echoed in an error. */
  apiKey?: string;
  /** Upstream endpoints the backend serves; the other dialect is translated. Default: each kind's own. */
  speaks?: SpokenEndpoint[];
  /** The most top logprobs the backend returns per token (the deployment's `--max-logprobs`). Default: each kind's own. */
  maxTopLogprobs?: number;
  /** Extra headers sent with every upstream request (e.g. `OpenAI-Organization`). */
  headers?: Record<string, string>;
  /** Total time, in ms, for one exchange, stream included; also the longest wait for headers or between two chunks (300000 when unset). */
  timeoutMs?: number;
}

/** What an adapter reads: the settings, with or without the `kind` that picked it. */
export type AdapterSettings<Settings extends BackendCommon> = Omit<Settings, 'kind'> & { kind?: string };

/** The keys `checkRemoteSettings` reads. */
export const REMOTE_KEYS: readonly string[] = ['url', 'apiKey', 'speaks', 'maxTopLogprobs', 'headers', 'timeoutMs'];

export function checkRemoteSettings(backend: Record<string, unknown>, key: string): RemoteBackendSettings {
  const url = optionalString(backend.url, `${key}.url`);
  if (!url || !/^https?:\/\//.test(url)) throw new ConfigError(`${key}.url`, 'required: an http(s) URL such as https://api.openai.com/v1');
  optionalString(backend.apiKey, `${key}.apiKey`);
  if (backend.speaks !== undefined) {
    const speaks = stringList(backend.speaks, `${key}.speaks`);
    if (speaks.length === 0 || speaks.some((s) => s !== 'chat' && s !== 'completions')) {
      throw new ConfigError(`${key}.speaks`, 'must list chat and/or completions');
    }
  }
  integerField(backend, 'maxTopLogprobs', key, 0, 20);
  integerField(backend, 'timeoutMs', key, 1);
  if (backend.headers !== undefined) {
    for (const [name, value] of Object.entries(objectAt(backend.headers, `${key}.headers`))) optionalString(value, `${key}.headers.${name}`);
  }
  return backend as unknown as RemoteBackendSettings;
}

/** The fate table and `translate --to` never connect: the URL only has to parse. */
export const NOWHERE = 'http://backend.invalid/v1';
