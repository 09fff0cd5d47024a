/**
 * Gemini counts a request's prompt tokens at `POST /models/{model}:countTokens`, given the
 * whole generateContent request (system instruction and tools count too): its `totalTokens`.
 */
import { isRecord } from '../../src/model/is-record.js';
import type { TokenCountEndpoint } from '../token-count-endpoint.js';

export const GEMINI_TOKEN_COUNT: TokenCountEndpoint = {
  url: (base, request) => `${base}/models/${encodeURIComponent(request.model.replace(/^models\//, ''))}:countTokens`,
  body: (wire, request) => ({ generateContentRequest: { model: `models/${request.model.replace(/^models\//, '')}`, ...wire } }),
  read: (answer) => (isRecord(answer) && typeof answer.totalTokens === 'number' ? answer.totalTokens : undefined),
};
