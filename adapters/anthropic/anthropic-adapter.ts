/**
 * `kind: anthropic`: Anthropic's Messages API (`POST {url}/messages`) as a
 * backend. The remote adapter every kind shares sends it (retries, 529s
 * included, pools, health probes, the concurrency limit); this adds
 * Anthropic's headers (per request, the caller's betas joined to the
 * backend's: merge-betas.ts) and reads its errors (anthropic-errors.ts).
 */
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { createRemoteAdapter, type WireCodec } from '../remote-adapter.js';
import type { AdapterSettings } from '../remote-settings.js';
import { refineError } from './anthropic-errors.js';
import { ADAPTIVE_EFFORTS, anthropicTable, BUDGET_EFFORTS } from './fields.js';
import { AnthropicChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { mergeBetas } from './merge-betas.js';
import { ANTHROPIC_DEFAULTS, type AnthropicSettings } from './settings.js';
import { toWireBody } from './to-wire-body.js';

/** The capabilities of a backend with these settings: chat only, no logprobs, efforts by `adaptiveThinking`. */
export function anthropicCapabilities(settings: Partial<AnthropicSettings>): BackendCapabilities {
  return {
    ...anthropicTable({
      adaptiveThinking: settings.adaptiveThinking,
      defaultMaxTokens: settings.defaultMaxTokens ?? ANTHROPIC_DEFAULTS.defaultMaxTokens,
    }),
    speaks: ['chat'],
    maxTopLogprobs: 0,
    efforts: new Set(settings.adaptiveThinking ? ADAPTIVE_EFFORTS : BUDGET_EFFORTS),
  };
}

/**
 * The wire codec of a backend with these capabilities (its table) and default `max_tokens`; `betas` is the
 * backend's own `anthropic-beta` header, which each request's betas (the caller's) join.
 */
export function anthropicCodec(capabilities: BackendCapabilities, defaultMaxTokens: number, betas?: string): WireCodec {
  return {
    toWireBody: (request, { stream }) => toWireBody(request, { table: capabilities, stream, defaultMaxTokens }),
    fromWireResult,
    chunkReader: (request) => new AnthropicChunkReader(request),
    headers: (request) => mergeBetas(betas, request.vendor?.anthropic?.betas),
  };
}

/** Anthropic's own headers (the key, the version, the betas), then those configured under `headers`, which have the last word. */
export function anthropicHeaders(settings: Partial<AnthropicSettings>): Record<string, string> {
  const headers: Record<string, string> = { 'anthropic-version': settings.anthropicVersion ?? ANTHROPIC_DEFAULTS.anthropicVersion };
  if (settings.betas?.length) headers['anthropic-beta'] = settings.betas.join(',');
  if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  for (const [name, value] of Object.entries(settings.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * @example
 * const claude = createAnthropicAdapter({ kind: 'anthropic', url: 'https://api.anthropic.com/v1', apiKey: process.env.ANTHROPIC_API_KEY });
 * const result = await claude.complete(request, { signal, requestId: 'req-1' });
 */
export function createAnthropicAdapter(settings: AdapterSettings<AnthropicSettings>, options: { name?: string } = {}): Adapter {
  const {
    apiKey,
    anthropicVersion: _version,
    betas: _betas,
    defaultMaxTokens: _maxTokens,
    adaptiveThinking: _adaptive,
    ...remote
  } = settings;
  const headers = anthropicHeaders(settings);
  const capabilities = anthropicCapabilities(settings);
  return createRemoteAdapter({
    name: options.name ?? 'anthropic',
    settings: { ...remote, headers },
    capabilities,
    codec: anthropicCodec(capabilities, settings.defaultMaxTokens ?? ANTHROPIC_DEFAULTS.defaultMaxTokens, headers['anthropic-beta']),
    paths: { chat: '/messages', completions: '/messages' },
    refineError,
    // The key goes in a header of Anthropic's own: masked whatever its length.
    secrets: apiKey ? [apiKey] : [],
  });
}
