/**
 * Google's Gemini API: `POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent` (SSE with
 * `?alt=sse`, else one JSON array) and `:countTokens`, `/v1/` too; `GET /v1beta/models[/{model}]`. The URL
 * carries the model and whether to stream, so the dialect is bound to each URL (`route`).
 */
import type { Dialect, RoutedDialect } from '../dialect.js';
import { camelCaseNames } from './camel-case-names.js';
import { countTokensAnswer, countTokensCreateBody } from './count-tokens.js';
import { geminiErrorBody, geminiStatusCode } from './error-body.js';
import { geminiModel, geminiModelList } from './model-list.js';
import { parseGeminiRequest } from './parse-request.js';
import { geminiFields } from './request-fields.js';
import { GEMINI_PREFIXES, geminiCallOf, geminiUrl } from './route.js';
import { serializeGeminiResult } from './serialize-result.js';
import { GeminiStreamSerializer } from './serialize-stream.js';
import { geminiSseFraming, JsonArrayFraming } from './stream-framing.js';

export const geminiDialect: Dialect = {
  name: 'gemini',
  title: 'Google Gemini',
  shortName: 'gemini',
  path: '/v1beta/models/{model}:generateContent',
  route: { prefixes: GEMINI_PREFIXES, match: bindToUrl, urlFor: geminiUrl },
  endpoint: 'chat',
  document: 'gemini',
  sse: geminiSseFraming,
  // Google takes proto names too (system_instruction, inline_data.mime_type), as its curl examples send them.
  normalizeBody: camelCaseNames,
  fields: geminiFields,
  // Its turns in contents, the system turn apart (the model is in the URL, not a field).
  wire: { form: 'gemini', conversation: { contents: 'turns', systemInstruction: 'system' } },
  // Unbound (the offline commands): no URL, so the body's own `model` field names it.
  parseRequest: (body, headers, context) => parseGeminiRequest(body, { model: '', stream: false }, headers, context),
  serializeResult: serializeGeminiResult,
  streamSerializer: (request, context) => new GeminiStreamSerializer(request, context),
  errorBody: geminiErrorBody,
  errorStatus: geminiStatusCode,
  countTokens: { createBody: countTokensCreateBody, answer: countTokensAnswer },
  apiKeyFrom: { header: 'x-goog-api-key', query: 'key' },
  // `GET /v1/models` with Google's key header (the SDK at apiVersion v1) lists in Google's shape; /v1beta/models always does.
  modelList: { header: 'x-goog-api-key', body: geminiModelList, model: geminiModel },
  streamFailure: (error) => geminiSseFraming.frame(geminiErrorBody(error)),
  validationStatus: 400,
  // `contents` is Gemini's alone.
  recognize: (body) => ('contents' in body ? 2 : 0),
  // The model and whether to stream are in the URL (route.urlFor).
  typicalRequest: () => ({ contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }], generationConfig: { maxOutputTokens: 16 } }),
};

/**
 * The dialects bound to URLs, kept by URL: a caller sends the same few URLs again and again, and binding
 * one (the URL read, the dialect copied with its own closures) was work on every request. Only URLs
 * whose query is none or `alt=sse` (no `?key=` kept in memory), and not the JSON-array stream, whose
 * framing is one request's state. At most BOUND_KEPT: a caller naming a new model each time starts it over.
 */
const bound = new Map<string, RoutedDialect>();
const BOUND_KEPT = 256;

/** The dialect for one URL's call: the model and stream from the URL, the framing `alt` asks for. */
function bindToUrl(url: string): RoutedDialect | undefined {
  const kept = bound.get(url);
  if (kept) return kept;
  const call = geminiCallOf(url);
  if (!call) return undefined;
  const stream = call.method === 'streamGenerateContent';
  const arrayFraming = stream && !call.sse ? new JsonArrayFraming() : undefined;
  const query = url.indexOf('?');
  const dialect: Dialect = {
    ...geminiDialect,
    path: query < 0 ? url : url.slice(0, query),
    parseRequest: (body, headers, context) => parseGeminiRequest(body, { model: call.model, stream }, headers, context),
    ...(arrayFraming ? { sse: arrayFraming, streamFailure: (error) => arrayFraming.failure(geminiErrorBody(error)) } : {}),
  };
  const routed = { dialect, model: call.model, countTokens: call.method === 'countTokens' };
  if (!arrayFraming && (query < 0 || url.slice(query) === '?alt=sse')) {
    if (bound.size >= BOUND_KEPT) bound.clear();
    bound.set(url, routed);
  }
  return routed;
}
