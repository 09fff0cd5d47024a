/**
 * Loads the proxy's YAML configuration: `${ENV}` substitution, a shape check
 * that names the bad key, and a frozen typed result.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { configurableLlamaOptions, type ConfigurableLlamaOptions } from '../adapters/llama-cpp/types.js';

export type BackendKind = 'llama-cpp' | 'openai' | 'fireworks' | 'llama-server' | 'vllm';
export type SpokenEndpoint = 'chat' | 'completions';

/** How a model formats its text; set on a backend, or on a route for one model. */
export interface ModelFormat {
  /** Chat template for chat requests sent to a completions-only backend: `chatml` (default), or Jinja source. */
  chatTemplate?: string;
  /** Tags that wrap reasoning in raw completions text. @example { open: "<think>", close: "</think>" } */
  thinkTags?: { open: string; close: string };
  /** How tool calls appear in generated text: `hermes` (`<tool_call>{json}</tool_call>`, default) or `llama3-json`. */
  toolCallFormat?: 'hermes' | 'llama3-json';
  /** Budget thresholds (thinking tokens) for mapping an integer reasoning budget to a named effort. */
  effortLadder?: Record<string, number>;
}

/** Settings every backend kind takes. */
export interface BackendCommon extends ModelFormat {
  kind: BackendKind;
  /** Drop fields the backend cannot honour (named in `x-dialect-warnings`) instead of answering 400. */
  dropUnsupported?: boolean;
}

export interface RemoteBackendSettings extends BackendCommon {
  kind: 'openai' | 'fireworks' | 'llama-server' | 'vllm';
  /** Base URL including the version path. @example https://api.fireworks.ai/inference/v1 */
  url: string;
  apiKey?: string;
  /** Upstream endpoints that exist; the other dialect is translated. */
  speaks?: SpokenEndpoint[];
  /** The deployment's `--max-logprobs` (Fireworks default 5, OpenAI 20). */
  maxTopLogprobs?: number;
  /** Extra headers sent upstream. */
  headers?: Record<string, string>;
  /** Total time allowed for one upstream request, in ms. */
  timeoutMs?: number;
  /** `llama-server` only: the server runs with `--jinja`, so chat `tools` work. */
  jinja?: boolean;
}

/** The bundled worker: its options are documented where the worker reads them (LlamaBackendOptions). */
export interface LlamaCppBackendSettings extends BackendCommon, ConfigurableLlamaOptions {
  kind: 'llama-cpp';
}

export type BackendSettings = RemoteBackendSettings | LlamaCppBackendSettings;

export interface RouteSettings extends ModelFormat {
  /** Model name pattern; `*` matches any run of characters. */
  model: string;
  backend: string;
  /** The model name sent upstream (defaults to the caller's). */
  upstreamModel?: string;
  /** Reasoning efforts this model accepts (a subset of the backend's); others are a 400. */
  efforts?: string[];
}

export interface ServerSettings {
  host: string;
  port: number;
  /** Inbound keys; when set, callers must send one as `Authorization: Bearer <key>`. */
  apiKeys: string[];
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  logLevel: string;
}

export interface ProxyConfig {
  server: ServerSettings;
  backends: Record<string, BackendSettings>;
  /** Backend that receives every other `/v1/*` path untouched. */
  passthrough?: string;
  routes: RouteSettings[];
}

export class ConfigError extends Error {
  constructor(key: string, message: string) {
    super(`config: ${key}: ${message}`);
    this.name = 'ConfigError';
  }
}

const kinds: readonly BackendKind[] = ['llama-cpp', 'openai', 'fireworks', 'llama-server', 'vllm'];

/**
 * Reads and checks a configuration file, or checks an object already in memory.
 * @example const config = loadConfig('config/default.yaml');
 */
export function loadConfig(source: string | Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): ProxyConfig {
  const raw = typeof source === 'string' ? parseYaml(readFileSync(source, 'utf8')) : source;
  const substituted = substituteEnv(raw, env, '');
  return deepFreeze(checkConfig(substituted));
}

/** Replaces `${NAME}` and `${NAME:-default}` in every string; an unset name without a default is an error. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, key: string): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_match, name: string, fallback?: string) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(key || '(root)', `environment variable ${name} is not set (use \${${name}:-default} to allow that)`);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteEnv(item, env, `${key}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, key ? `${key}.${k}` : k)]));
  }
  return value;
}

function checkConfig(raw: unknown): ProxyConfig {
  const root = objectAt(raw, '(root)');
  allowKeys(root, '(root)', ['server', 'backends', 'passthrough', 'routes']);
  const server = objectAt(root.server ?? {}, 'server');
  allowKeys(server, 'server', ['host', 'port', 'apiKeys', 'maxBodyBytes', 'logLevel']);
  const backendsRaw = objectAt(root.backends, 'backends');
  const backends: Record<string, BackendSettings> = {};
  for (const [name, value] of Object.entries(backendsRaw)) backends[name] = checkBackend(value, `backends.${name}`);
  if (Object.keys(backends).length === 0) throw new ConfigError('backends', 'at least one backend is required');
  const passthrough = optionalString(root.passthrough, 'passthrough');
  if (passthrough !== undefined && !backends[passthrough]) throw new ConfigError('passthrough', `no backend named "${passthrough}"`);
  if (passthrough !== undefined && backends[passthrough].kind === 'llama-cpp') {
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
      maxBodyBytes: optionalInteger(server.maxBodyBytes, 'server.maxBodyBytes', 1024) ?? 10 * 1024 * 1024,
      logLevel: optionalString(server.logLevel, 'server.logLevel') ?? 'info',
    },
    backends,
    ...(passthrough !== undefined ? { passthrough } : {}),
    routes,
  };
}

const formatKeys = ['chatTemplate', 'thinkTags', 'toolCallFormat', 'effortLadder'];
const commonKeys = ['kind', 'dropUnsupported', ...formatKeys];

function checkBackend(raw: unknown, key: string): BackendSettings {
  const backend = objectAt(raw, key);
  const kind = backend.kind;
  if (typeof kind !== 'string' || !kinds.includes(kind as BackendKind)) {
    throw new ConfigError(`${key}.kind`, `must be one of ${kinds.join(', ')}`);
  }
  optionalBoolean(backend.dropUnsupported, `${key}.dropUnsupported`);
  checkModelFormat(backend, key);
  if (kind === 'llama-cpp') {
    allowKeys(backend, key, [...commonKeys, ...configurableLlamaOptions]);
    if (typeof backend.model !== 'string' || backend.model === '') throw new ConfigError(`${key}.model`, 'required: builtin, a .gguf path, or hf:owner/repo/file.gguf');
    integerField(backend, 'contextSize', key, 16);
    integerField(backend, 'parallel', key, 1, 64);
    integerField(backend, 'queueLimit', key, 0);
    integerField(backend, 'threads', key, 1, 256);
    integerField(backend, 'streamBatchMs', key, 0, 1000);
    return backend as unknown as LlamaCppBackendSettings;
  }
  allowKeys(backend, key, [...commonKeys, 'url', 'apiKey', 'speaks', 'maxTopLogprobs', 'headers', 'timeoutMs', ...(kind === 'llama-server' ? ['jinja'] : [])]);
  optionalBoolean(backend.jinja, `${key}.jinja`);
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

function checkRoute(raw: unknown, key: string, backends: Record<string, BackendSettings>): RouteSettings {
  const route = objectAt(raw, key);
  allowKeys(route, key, ['model', 'backend', 'upstreamModel', 'efforts', ...formatKeys]);
  checkModelFormat(route, key);
  const model = optionalString(route.model, `${key}.model`);
  if (!model) throw new ConfigError(`${key}.model`, 'required (a model name or pattern with *)');
  const backend = optionalString(route.backend, `${key}.backend`);
  if (!backend || !backends[backend]) throw new ConfigError(`${key}.backend`, `must name one of the backends (${Object.keys(backends).join(', ')})`);
  const upstreamModel = optionalString(route.upstreamModel, `${key}.upstreamModel`);
  if (route.efforts !== undefined) stringList(route.efforts, `${key}.efforts`);
  return { ...route, model, backend, ...(upstreamModel !== undefined ? { upstreamModel } : {}) } as RouteSettings;
}

/** Checks the format settings a backend or a route may carry (normalising the ladder in place). */
function checkModelFormat(object: Record<string, unknown>, key: string): void {
  optionalString(object.chatTemplate, `${key}.chatTemplate`);
  if (object.thinkTags !== undefined) {
    const tags = objectAt(object.thinkTags, `${key}.thinkTags`);
    if (typeof tags.open !== 'string' || typeof tags.close !== 'string') throw new ConfigError(`${key}.thinkTags`, 'needs string `open` and `close`');
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

function objectAt(value: unknown, key: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(key, 'must be a mapping');
  return value as Record<string, unknown>;
}

function allowKeys(object: Record<string, unknown>, key: string, allowed: string[]): void {
  for (const name of Object.keys(object)) {
    if (!allowed.includes(name)) throw new ConfigError(key === '(root)' ? name : `${key}.${name}`, `unknown key (allowed: ${allowed.join(', ')})`);
  }
}

function optionalString(value: unknown, key: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ConfigError(key, 'must be a string');
  return value;
}

function optionalBoolean(value: unknown, key: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ConfigError(key, 'must be true or false');
  return value;
}

function optionalInteger(value: unknown, key: string, min = -Infinity, max = Infinity): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(key, `must be an integer${min > -Infinity ? ` >= ${min}` : ''}${max < Infinity ? ` and <= ${max}` : ''}`);
  }
  return number;
}

/** Checks an integer setting and stores it as a number (`${ENV}` substitution yields strings). */
function integerField(object: Record<string, unknown>, name: string, key: string, min?: number, max?: number): void {
  const value = optionalInteger(object[name], `${key}.${name}`, min, max);
  if (value !== undefined) object[name] = value;
}

function stringList(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw new ConfigError(key, 'must be a list of strings');
  return value as string[];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
