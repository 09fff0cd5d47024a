/**
 * `kind: gemini`: Google's Gemini API (`POST {url}/models/{model}:generateContent`,
 * `:streamGenerateContent?alt=sse`, `:countTokens`) as a backend. The remote
 * adapter every kind shares sends it (retries, pools, health probes, the
 * concurrency limit); this adds the key as `x-goog-api-key`, the per-request
 * URL, and reads Gemini's errors (gemini-errors.ts).
 */
import type { Adapter, BackendCapabilities } from '../../src/backend/adapter.js';
import { createRemoteAdapter, type WireCodec } from '../remote-adapter.js';
import type { AdapterSettings } from '../remote-settings.js';
import { BUDGET_EFFORTS, geminiTable, LEVEL_EFFORTS } from './fields.js';
import { GeminiChunkReader } from './from-wire-chunks.js';
import { fromWireResult } from './from-wire-result.js';
import { refineError } from './gemini-errors.js';
import { GEMINI_DEFAULTS, type GeminiSettings } from './settings.js';
import { GEMINI_TOKEN_COUNT } from './token-count.js';
import { pathOf, toWireBody } from './to-wire-body.js';

const STREAM_PATH = '/models/{model}:streamGenerateContent?alt=sse';

/** Gemini returns at most 20 top candidates per token (`generationConfig.logprobs`). */
const MAX_TOP_LOGPROBS = 20;

/** The capabilities of a backend with these settings: chat only, efforts by `thinkingLevels`. */
export function geminiCapabilities(settings: Partial<GeminiSettings>): BackendCapabilities {
  return {
    ...geminiTable({ toolSchemas: settings.toolSchemas ?? GEMINI_DEFAULTS.toolSchemas, thinkingLevels: settings.thinkingLevels }),
    speaks: ['chat'],
    maxTopLogprobs: MAX_TOP_LOGPROBS,
    efforts: new Set(settings.thinkingLevels ? LEVEL_EFFORTS : BUDGET_EFFORTS),
  };
}

export function geminiCodec(capabilities: BackendCapabilities): WireCodec {
  return {
    toWireBody: (request) => toWireBody(request, capabilities),
    fromWireResult,
    chunkReader: (request) => new GeminiChunkReader(request),
    path: pathOf,
  };
}

/** Gemini's key header, then those configured under `headers`, which have the last word. */
export function geminiHeaders(settings: Partial<GeminiSettings>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (settings.apiKey) headers['x-goog-api-key'] = settings.apiKey;
  for (const [name, value] of Object.entries(settings.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * @example
 * const gemini = createGeminiAdapter({ kind: 'gemini', url: 'https://generativelanguage.googleapis.com/v1beta', apiKey: process.env.GEMINI_API_KEY });
 * const result = await gemini.complete(request, { signal, requestId: 'req-1' });
 */
export function createGeminiAdapter(settings: AdapterSettings<GeminiSettings>, options: { name?: string } = {}): Adapter {
  const { apiKey, toolSchemas: _schemas, thinkingLevels: _levels, ...remote } = settings;
  const capabilities = geminiCapabilities(settings);
  return createRemoteAdapter({
    name: options.name ?? 'gemini',
    settings: { ...remote, headers: geminiHeaders(settings) },
    capabilities,
    codec: geminiCodec(capabilities),
    // What reports show; each request's own path is the codec's (the model is in it).
    paths: { chat: '/models/{model}:generateContent', completions: '/models/{model}:generateContent' },
    streamPaths: { chat: STREAM_PATH, completions: STREAM_PATH },
    tokenCount: GEMINI_TOKEN_COUNT,
    refineError,
    // The key goes in a header of Google's own: masked whatever its length.
    secrets: apiKey ? [apiKey] : [],
  });
}
