/**
 * `:countTokens`: its body is `{contents}`, or `{generateContentRequest}` (a whole request, tools and
 * system instruction too); counted as the generateContent body it stands for. Google's answer is
 * `{totalTokens}`.
 */
import { invalidRequest } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';

export function countTokensCreateBody(body: Record<string, unknown>): Record<string, unknown> {
  const { contents, generateContentRequest, ...other } = body;
  const unknown = Object.keys(other)[0];
  if (unknown !== undefined)
    throw invalidRequest(
      unknown,
      `Invalid JSON payload received. Unknown name "${unknown}": a token count takes contents or generateContentRequest.`,
    );
  if (generateContentRequest === undefined) return contents === undefined ? {} : { contents };
  if (contents !== undefined) throw invalidRequest('generateContentRequest', 'contents and generateContentRequest cannot both be set.');
  if (!isRecord(generateContentRequest)) throw invalidRequest('generateContentRequest', 'generateContentRequest must be an object.');
  // Its `model` repeats the URL's (`models/...`), which is the one counted for.
  const { model: _model, ...request } = generateContentRequest;
  return request;
}

export function countTokensAnswer(tokens: number): Record<string, unknown> {
  return { totalTokens: tokens };
}
