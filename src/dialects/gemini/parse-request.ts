/**
 * A Gemini body (already validated against config/openapi/gemini.yaml) and what its URL says (the model,
 * whether it streams) -> NeutralRequest. The option objects are opened into dotted fields first, so
 * the cross-field rules and the table see one flat body; rows apply in the table's order (the tools
 * before the function-calling config that names them).
 */
import { emptyRequest, type NeutralRequest } from '../../model/request.js';
import { isRecord } from '../../model/is-record.js';
import { applyCrossFieldRules, type RequestHeaders } from '../cross-field-rules.js';
import type { DialectContext } from '../dialect.js';
import { applyFieldTable, setPath } from '../field-table.js';
import { geminiCrossFieldRules, geminiFields, OPENED_OBJECTS } from './request-fields.js';

/** What the URL carries. */
export interface GeminiUrlParts {
  model: string;
  stream: boolean;
}

const ROW_ORDER = new Map(Object.keys(geminiFields).map((field, i) => [field, i]));

/**
 * @example parseGeminiRequest({contents: [{role: 'user', parts: [{text: 'Hi'}]}]}, {model: 'gemini-2.5-flash', stream: false})
 */
export function parseGeminiRequest(
  body: Record<string, unknown>,
  url: GeminiUrlParts,
  headers: RequestHeaders = {},
  context?: DialectContext,
): NeutralRequest {
  const request = emptyRequest('chat', url.model);
  if (url.model !== '') {
    request.origins.model = 'model';
    // Google answers with the model as the caller named it (`modelVersion`).
    (request.echoedParams ??= {}).model = url.model;
  }
  if (url.stream) setPath(request, 'stream', { includeUsage: true, tokenIds: false }, 'streamGenerateContent');
  const flat = openedFields(body);
  applyCrossFieldRules(geminiCrossFieldRules, { body: flat, headers, request });
  applyFieldTable(geminiFields, flat, request, context);
  return request;
}

/** `{generationConfig: {temperature: 1}}` -> `{'generationConfig.temperature': 1}`, in the table's row order. */
export function openedFields(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const flat: Record<string, unknown> = { ...body };
  for (const name of OPENED_OBJECTS) {
    const value = flat[name];
    if (!isRecord(value)) continue;
    delete flat[name];
    for (const [key, item] of Object.entries(value)) flat[`${name}.${key}`] = item;
  }
  const rank = (field: string) => ROW_ORDER.get(field) ?? ROW_ORDER.size;
  return Object.fromEntries(Object.entries(flat).sort(([a], [b]) => rank(a) - rank(b)));
}
