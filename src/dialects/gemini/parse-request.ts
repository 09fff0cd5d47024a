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

/** Each opened object's members' dotted names (`temperature` -> `generationConfig.temperature`), made once rather than per request. */
const MEMBER_FIELDS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  OPENED_OBJECTS.map((name) => {
    const dotted = [...Object.keys(geminiFields), ...OPENED_OBJECTS].filter((field) => field.startsWith(`${name}.`));
    return [name, new Map(dotted.map((field) => [field.slice(name.length + 1), field]))];
  }),
);

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

/**
 * `{generationConfig: {temperature: 1}}` -> `{'generationConfig.temperature': 1}`, in the table's row order; fields of
 * no row last, in the body's order. A Map, not a copy of the body with its opened objects deleted (which put the
 * copy in dictionary mode): its order rules are an object's here (a field set again keeps its place, one deleted goes),
 * and the body's integer-like keys, which an object puts first, are in Object.keys' order already. Runs on every request.
 */
export function openedFields(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const key of Object.keys(body)) flat.set(key, body[key]);
  for (const name of OPENED_OBJECTS) {
    const value = flat.get(name);
    if (!isRecord(value)) continue;
    flat.delete(name);
    const members = MEMBER_FIELDS.get(name)!;
    for (const key of Object.keys(value)) flat.set(members.get(key) ?? `${name}.${key}`, value[key]);
  }
  // What a stable sort by row gives, without comparing: each row's field in its slot, the rest after.
  const rows: [string, unknown][] = [];
  const rest: [string, unknown][] = [];
  for (const entry of flat) {
    const row = ROW_ORDER.get(entry[0]);
    if (row === undefined) rest.push(entry);
    else rows[row] = entry;
  }
  const ordered: [string, unknown][] = [];
  for (const entry of rows) if (entry !== undefined) ordered.push(entry);
  for (const entry of rest) ordered.push(entry);
  // fromEntries defines each field as the body's own (a `__proto__` key stays data).
  return Object.fromEntries(ordered);
}
