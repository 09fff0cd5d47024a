/**
 * Gemini's URLs carry what other dialects put in the body: the model, and whether the answer streams
 * (`/v1beta/models/{model}:streamGenerateContent?alt=sse`). `/v1/` serves the same methods.
 */

/** The path prefixes the Gemini methods live under. */
export const GEMINI_PREFIXES = ['/v1beta/models/', '/v1/models/'] as const;

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens';

export interface GeminiCall {
  /** The model as the caller named it, percent-decoding undone (`gemini-2.5-pro`, `accounts/x/models/y`). */
  model: string;
  method: GeminiMethod;
  /** `alt=sse`: a stream as server-sent events; without it Google streams one JSON array. */
  sse: boolean;
}

const METHOD_PATH = /^\/v1(?:beta)?\/models\/(.+):(generateContent|streamGenerateContent|countTokens)$/;

/**
 * @example geminiCallOf('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse')
 *   // {model: 'gemini-2.5-pro', method: 'streamGenerateContent', sse: true}
 */
export function geminiCallOf(url: string): GeminiCall | undefined {
  const query = url.indexOf('?');
  const match = METHOD_PATH.exec(query < 0 ? url : url.slice(0, query));
  if (!match) return undefined;
  let model: string;
  try {
    model = decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
  const params = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
  return { model, method: match[2] as GeminiMethod, sse: params.get('alt') === 'sse' };
}

/** @example geminiUrl('gemini-2.5-pro', true) // '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse' */
export function geminiUrl(model: string, stream: boolean): string {
  return `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}
