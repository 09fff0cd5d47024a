/**
 * Loads the proxy's YAML configuration: `${ENV}` substitution, a shape check
 * that names the bad key, and a frozen typed result.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml, YAMLError } from 'yaml';
import { BACKEND_KINDS, findKind } from '../../adapters/registry.js';
import { fileProblem } from '../config/file-problem.js';
import {
  allowKeys,
  ConfigError,
  objectAt,
  optionalBoolean,
  optionalInteger,
  optionalString,
  stringList,
  reportingEveryUnknownKey,
} from '../config/config-checks.js';
import { checkTelemetry } from '../telemetry/check-telemetry.js';
import {
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  type BackendCommon,
  type ProxyConfig,
  type ProxyLimits,
  type ResponseStoreSettings,
  type RouteSettings,
} from '../config/settings.js';

export { ConfigError } from '../config/config-checks.js';
export type { BackendCommon, ModelFormat, ProxyConfig, ProxyLimits, RouteSettings, ServerSettings } from '../config/settings.js';
/** A backend's settings of any kind the registry lists (`BackendSettings`), or of one by its name (`BackendSettingsByKind['vllm']`). */
export type { BackendSettings, BackendSettingsByKind, RemoteBackendSettings } from '../../adapters/registry.js';

/** How `loadConfig` treats a `${NAME}` whose variable is unset and has no default. */
export interface LoadConfigOptions {
  /**
   * `error` (default): every such variable is named in one ConfigError, as a server start needs.
   * `empty`: it reads as empty, for the offline commands (translate, audit), which send nothing and need no secret.
   */
  unsetVariables?: 'error' | 'empty';
}

/**
 * Reads and checks a configuration file, or checks an object already in memory.
 * A file that cannot be read or parsed is a ConfigError naming it (with the line and column of bad YAML).
 * @example const config = loadConfig('config/default.yaml');
 * @example const offline = loadConfig('proxy.yaml', process.env, { unsetVariables: 'empty' });
 */
export function loadConfig(
  source: string | Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
  { unsetVariables = 'error' }: LoadConfigOptions = {},
): ProxyConfig {
  const raw = typeof source === 'string' ? readConfigFile(source) : source;
  const unset: UnsetVariable[] = [];
  const substituted = substituteEnv(raw, env, '', unset);
  if (unset.length > 0 && unsetVariables === 'error') throw unsetVariablesError(unset);
  try {
    return deepFreeze(reportingEveryUnknownKey(() => checkConfig(substituted)));
  } catch (error) {
    // Read as empty, an unset variable can leave a setting the check refuses (a url): then the variable is the news.
    const culprit = unset.find(({ key }) => error instanceof ConfigError && error.message.startsWith(`config: ${key}: `));
    if (culprit) throw unsetVariablesError([culprit]);
    throw error;
  }
}

function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, `${fileProblem(error)}; a configuration is a YAML file, e.g. config/default.yaml`);
  }
  try {
    return parseYaml(text);
  } catch (error) {
    if (!(error instanceof YAMLError)) throw error;
    // The parser's message is "<what> at line L, column C:" and an excerpt: the file's position goes in front.
    const [position] = error.linePos ?? [];
    const what = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(position ? `${file}:${position.line}:${position.col}` : file, `not valid YAML: ${what}`);
  }
}

/** A `${NAME}` without a default whose variable is unset, and the key it is in. */
export interface UnsetVariable {
  name: string;
  key: string;
}

/**
 * Replaces `${NAME}` and `${NAME:-default}` in every string. An unset name without a default is an
 * error; or, given `unset`, it is recorded there and reads as empty (so every one can be named at once).
 */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, key: string, unset?: UnsetVariable[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      if (!unset) throw unsetVariablesError([{ name, key: key || '(root)' }]);
      unset.push({ name, key: key || '(root)' });
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteEnv(item, env, `${key}[${i}]`, unset));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, key ? `${key}.${k}` : k, unset)]));
  }
  return value;
}

/** One error naming every unset variable and where each is used. */
function unsetVariablesError(unset: readonly UnsetVariable[]): ConfigError {
  const names = [...new Set(unset.map(({ name }) => name))];
  const keys = [...new Set(unset.map(({ key }) => key))];
  if (names.length === 1) {
    const [name] = names;
    return new ConfigError(keys.join(', '), `environment variable ${name} is not set (use \${${name}:-default} to allow that)`);
  }
  const listed = names.map(
    (name) =>
      `${name} (${unset
        .filter((variable) => variable.name === name)
        .map(({ key }) => key)
        .join(', ')})`,
  );
  return new ConfigError('environment', `variables not set: ${listed.join(', ')}; set them, or use \${NAME:-default} to allow one unset`);
}

function checkConfig(raw: unknown): ProxyConfig {
  const root = objectAt(raw, '(root)');
  allowKeys(root, '(root)', ['server', 'responses', 'limits', 'backends', 'passthrough', 'routes', 'telemetry']);
  const server = objectAt(root.server ?? {}, 'server');
  allowKeys(server, 'server', [
    'host',
    'port',
    'apiKeys',
    'maxBodyBytes',
    'logLevel',
    'sseKeepAliveMs',
    'shutdownGraceMs',
    'allowUnauthenticated',
    'inspector',
    'requestTimeoutMs',
    'headersTimeoutMs',
    'keepAliveTimeoutMs',
    'maxConnections',
    'maxConnectionsPerAddress',
    'maxPipelinedRequests',
    'warmUpMs',
  ]);
  const backendsRaw = objectAt(root.backends, 'backends');
  const backends: Record<string, BackendCommon> = {};
  for (const [name, value] of Object.entries(backendsRaw)) backends[name] = checkBackend(value, `backends.${name}`);
  if (Object.keys(backends).length === 0) throw new ConfigError('backends', 'at least one backend is required');
  const passthrough = optionalString(root.passthrough, 'passthrough');
  if (passthrough !== undefined && !backends[passthrough]) throw new ConfigError('passthrough', `no backend named "${passthrough}"`);
  if (passthrough !== undefined && !findKind(backends[passthrough].kind)?.remote) {
    throw new ConfigError('passthrough', 'must name a remote backend (it relays raw HTTP)');
  }
  if (!Array.isArray(root.routes) || root.routes.length === 0) throw new ConfigError('routes', 'a non-empty list is required');
  const routes = root.routes.map((value, i) => checkRoute(value, `routes[${i}]`, backends));
  const apiKeys = server.apiKeys === undefined ? [] : stringList(server.apiKeys, 'server.apiKeys').filter((key) => key !== '');
  return {
    server: {
      host: optionalString(server.host, 'server.host') ?? '127.0.0.1',
      port: optionalInteger(server.port, 'server.port', 0, 65535) ?? 8080,
      apiKeys,
      maxBodyBytes: optionalInteger(server.maxBodyBytes, 'server.maxBodyBytes', 1024) ?? DEFAULT_MAX_BODY_BYTES,
      logLevel: optionalString(server.logLevel, 'server.logLevel') ?? 'info',
      sseKeepAliveMs: optionalInteger(server.sseKeepAliveMs, 'server.sseKeepAliveMs', 1) ?? 15_000,
      shutdownGraceMs: optionalInteger(server.shutdownGraceMs, 'server.shutdownGraceMs', 0) ?? 30_000,
      allowUnauthenticated: optionalBoolean(server.allowUnauthenticated, 'server.allowUnauthenticated') ?? false,
      inspector: optionalBoolean(server.inspector, 'server.inspector') ?? true,
      requestTimeoutMs: optionalInteger(server.requestTimeoutMs, 'server.requestTimeoutMs', 1) ?? 60_000,
      headersTimeoutMs: optionalInteger(server.headersTimeoutMs, 'server.headersTimeoutMs', 1) ?? 20_000,
      keepAliveTimeoutMs: optionalInteger(server.keepAliveTimeoutMs, 'server.keepAliveTimeoutMs', 1) ?? 65_000,
      maxConnections: optionalInteger(server.maxConnections, 'server.maxConnections', 1) ?? 4096,
      maxConnectionsPerAddress: optionalInteger(server.maxConnectionsPerAddress, 'server.maxConnectionsPerAddress', 0) ?? 1024,
      maxPipelinedRequests: optionalInteger(server.maxPipelinedRequests, 'server.maxPipelinedRequests', 1) ?? 8,
      warmUpMs: optionalInteger(server.warmUpMs, 'server.warmUpMs', 0, 60_000) ?? 1000,
    },
    responses: checkResponses(root.responses, apiKeys.length),
    limits: checkLimits(root.limits),
    backends,
    ...(passthrough !== undefined ? { passthrough } : {}),
    routes,
    ...(root.telemetry !== undefined && root.telemetry !== null ? { telemetry: checkTelemetry(root.telemetry) } : {}),
  };
}

/** `responses.store`: absent keeps the proxy stateless. `keyCount`: `server.apiKeys`, which the per-key bounds' defaults follow. */
function checkResponses(raw: unknown, keyCount: number): ProxyConfig['responses'] {
  const responses = objectAt(raw ?? {}, 'responses');
  allowKeys(responses, 'responses', ['store', 'encryptionKey']);
  const encryptionKey = optionalString(responses.encryptionKey, 'responses.encryptionKey');
  if (encryptionKey !== undefined && encryptionKey.length < 16)
    throw new ConfigError('responses.encryptionKey', 'must be at least 16 characters: a secret, e.g. `openssl rand -base64 32`');
  const store = checkStore(responses.store, keyCount);
  return { ...(encryptionKey !== undefined ? { encryptionKey } : {}), ...(store ? { store } : {}) };
}

/** `responses.store`: absent keeps the proxy stateless. */
function checkStore(raw: unknown, keyCount: number): ResponseStoreSettings | undefined {
  if (raw === undefined || raw === null) return undefined;
  const store = objectAt(raw, 'responses.store');
  const kind = store.kind ?? 'memory';
  if (kind !== 'memory' && kind !== 'redis')
    throw new ConfigError('responses.store.kind', "must be 'memory' (this process only) or 'redis' (shared by every replica)");
  const maxResponses = optionalInteger(store.maxResponses, 'responses.store.maxResponses', 1) ?? 10_000;
  const maxBytes = optionalInteger(store.maxBytes, 'responses.store.maxBytes', 1024) ?? 256 * 1024 * 1024;
  const maxResponseBytes = optionalInteger(store.maxResponseBytes, 'responses.store.maxResponseBytes', 1024) ?? 16 * 1024 * 1024;
  // Between keys, a quarter each by default: no key takes more than that from the others. One owner
  // (no keys, or one) has nobody to share with, and keeps the whole store as before.
  const share = (whole: number) => (keyCount >= 2 ? Math.max(1, Math.floor(whole / 4)) : whole);
  const maxBytesPerKey =
    optionalInteger(store.maxBytesPerKey, 'responses.store.maxBytesPerKey', 1024) ?? Math.max(share(maxBytes), maxResponseBytes);
  if (maxBytesPerKey < maxResponseBytes)
    throw new ConfigError(
      'responses.store.maxBytesPerKey',
      `must be at least maxResponseBytes (${maxResponseBytes}): a response the store takes must fit its key's share`,
    );
  const shared = {
    maxResponses,
    maxAgeSeconds: optionalInteger(store.maxAgeSeconds, 'responses.store.maxAgeSeconds', 1) ?? 86_400,
    storeByDefault: optionalBoolean(store.storeByDefault, 'responses.store.storeByDefault') ?? true,
    maxBytes,
    maxResponseBytes,
    maxResponsesPerKey: optionalInteger(store.maxResponsesPerKey, 'responses.store.maxResponsesPerKey', 1) ?? share(maxResponses),
    maxBytesPerKey,
    maxContinuationDepth: optionalInteger(store.maxContinuationDepth, 'responses.store.maxContinuationDepth', 1) ?? 1000,
  };
  const common = ['kind', ...Object.keys(shared)];
  if (kind === 'memory') {
    allowKeys(store, 'responses.store', common);
    return { kind, ...shared };
  }
  allowKeys(store, 'responses.store', [...common, 'url', 'keyPrefix', 'connectTimeoutMs', 'commandTimeoutMs', 'runLeaseSeconds']);
  const url = optionalString(store.url, 'responses.store.url');
  if (url === undefined || !/^rediss?:\/\/./.test(url))
    throw new ConfigError(
      'responses.store.url',
      'required with kind redis: redis://[user:password@]host[:port][/db], or rediss:// for TLS',
    );
  return {
    kind,
    ...shared,
    url,
    keyPrefix: optionalString(store.keyPrefix, 'responses.store.keyPrefix') ?? 'dialect-proxy:',
    connectTimeoutMs: optionalInteger(store.connectTimeoutMs, 'responses.store.connectTimeoutMs', 1) ?? 5000,
    commandTimeoutMs: optionalInteger(store.commandTimeoutMs, 'responses.store.commandTimeoutMs', 1) ?? 2000,
    runLeaseSeconds: optionalInteger(store.runLeaseSeconds, 'responses.store.runLeaseSeconds', 1) ?? 15,
  };
}

/** `limits`: every budget has a default (DEFAULT_LIMITS); a key set here replaces it. */
function checkLimits(raw: unknown): ProxyLimits {
  const limits = objectAt(raw ?? {}, 'limits');
  const names = Object.keys(DEFAULT_LIMITS) as (keyof ProxyLimits)[];
  allowKeys(limits, 'limits', names);
  return Object.fromEntries(
    names.map((name) => [name, optionalInteger(limits[name], `limits.${name}`, 1) ?? DEFAULT_LIMITS[name]]),
  ) as unknown as ProxyLimits;
}

const formatKeys = ['chatTemplate', 'thinkTags', 'toolCallFormat', 'effortLadder'];
const commonKeys = ['kind', 'dropUnsupported', ...formatKeys];

/** The common keys here; the kind checks its own (adapters/<kind>/). */
function checkBackend(raw: unknown, key: string): BackendCommon {
  const backend = objectAt(raw, key);
  const kind = typeof backend.kind === 'string' ? findKind(backend.kind) : undefined;
  if (!kind) throw new ConfigError(`${key}.kind`, `must be one of ${BACKEND_KINDS.map(({ name }) => name).join(', ')}`);
  optionalBoolean(backend.dropUnsupported, `${key}.dropUnsupported`);
  checkModelFormat(backend, key);
  allowKeys(backend, key, [...commonKeys, ...kind.keys]);
  return kind.check(backend, key);
}

function checkRoute(raw: unknown, key: string, backends: Record<string, BackendCommon>): RouteSettings {
  const route = objectAt(raw, key);
  allowKeys(route, key, ['model', 'backend', 'upstreamModel', 'upstreamModels', 'efforts', ...formatKeys]);
  checkModelFormat(route, key);
  const model = optionalString(route.model, `${key}.model`);
  if (!model) throw new ConfigError(`${key}.model`, 'required (a model name or pattern with *)');
  const backend = Array.isArray(route.backend)
    ? stringList(route.backend, `${key}.backend`)
    : optionalString(route.backend, `${key}.backend`);
  const names = typeof backend === 'string' ? [backend] : (backend ?? []);
  if (names.length === 0 || names.some((name) => !backends[name])) {
    throw new ConfigError(`${key}.backend`, `must name one of the backends (${Object.keys(backends).join(', ')}), or a list of them`);
  }
  if (new Set(names).size < names.length) throw new ConfigError(`${key}.backend`, 'names a backend twice');
  if (route.upstreamModels !== undefined) {
    for (const [name, upstream] of Object.entries(objectAt(route.upstreamModels, `${key}.upstreamModels`))) {
      if (!names.includes(name))
        throw new ConfigError(`${key}.upstreamModels.${name}`, `not a backend of this route (${names.join(', ')})`);
      if (!optionalString(upstream, `${key}.upstreamModels.${name}`))
        throw new ConfigError(`${key}.upstreamModels.${name}`, 'must be a model name');
    }
  }
  const upstreamModel = optionalString(route.upstreamModel, `${key}.upstreamModel`);
  if (route.efforts !== undefined) stringList(route.efforts, `${key}.efforts`);
  return {
    ...route,
    model,
    backend: backend as string | string[],
    ...(upstreamModel !== undefined ? { upstreamModel } : {}),
  } as RouteSettings;
}

/** Checks the format settings a backend or a route may carry (normalising the ladder in place). */
function checkModelFormat(object: Record<string, unknown>, key: string): void {
  optionalString(object.chatTemplate, `${key}.chatTemplate`);
  if (object.thinkTags !== undefined) {
    const tags = objectAt(object.thinkTags, `${key}.thinkTags`);
    if (typeof tags.open !== 'string' || typeof tags.close !== 'string')
      throw new ConfigError(`${key}.thinkTags`, 'needs string `open` and `close`');
  }
  if (object.toolCallFormat !== undefined && !['hermes', 'llama3-json'].includes(object.toolCallFormat as string)) {
    throw new ConfigError(`${key}.toolCallFormat`, 'must be hermes or llama3-json');
  }
  if (object.effortLadder !== undefined) object.effortLadder = checkLadder(object.effortLadder, `${key}.effortLadder`);
}

const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'adaptive'];

/** `{effort: maxBudgetTokens}`, e.g. `{low: 2048, medium: 8192, high: 32768}`. */
function checkLadder(raw: unknown, key: string): Record<string, number> {
  const ladder: Record<string, number> = {};
  for (const [effort, budget] of Object.entries(objectAt(raw, key))) {
    if (!efforts.includes(effort)) throw new ConfigError(`${key}.${effort}`, `not an effort (one of ${efforts.join(', ')})`);
    const tokens = optionalInteger(budget, `${key}.${effort}`, 1);
    if (tokens === undefined) throw new ConfigError(`${key}.${effort}`, 'must be an integer >= 1');
    ladder[effort] = tokens;
  }
  return ladder;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
