/**
 * Carries out a backend's field table on the wire body it builds: plain
 * copies under their wire names, converters once each. It decides nothing:
 * the plan refused or dropped, on this endpoint, every field the caller sent
 * that the table does not take (the field plan, field-plan.ts), so what is
 * left on the request is what goes.
 */
import { unsupportedParameter } from '../errors/proxy-error.js';
import { NEUTRAL_FIELD_NAMES, NEUTRAL_FIELDS, paramOf, relayedParamOf, type NeutralField } from '../model/neutral-fields.js';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import { handlingOf, type BackendTable, type WireBody, type WriteField } from './field-support.js';

/** What one endpoint of a table writes, field by field in the neutral order: each field's reader and its wire name or converter. */
type Writer = { value: (request: NeutralRequest) => unknown } & ({ wire: string } | { write: WriteField });

/** Resolved once per table and endpoint. */
const resolved = new WeakMap<BackendTable, Record<Endpoint, readonly Writer[]>>();

function writersOf(table: BackendTable, endpoint: Endpoint): readonly Writer[] {
  let both = resolved.get(table);
  if (!both) {
    const on = (at: Endpoint): Writer[] =>
      NEUTRAL_FIELD_NAMES.flatMap((field): Writer[] => {
        const handling = handlingOf(table.fields, field, at);
        const { value } = NEUTRAL_FIELDS[field];
        if (handling.kind === 'copy') return [{ value, wire: handling.wire }];
        if (handling.kind === 'convert') return [{ value, write: handling.write }];
        return [];
      });
    both = { chat: on('chat'), text: on('text') };
    resolved.set(table, both);
  }
  return both[endpoint];
}

/**
 * @example
 * const body = { model: request.model, prompt: request.prompt };
 * writeFields(body, request, table); // adds top_k, max_tokens, ...
 */
export function writeFields(body: WireBody, request: NeutralRequest, table: BackendTable): WireBody {
  const converted = new Set<WriteField>();
  for (const writer of writersOf(table, request.endpoint)) {
    const value = writer.value(request);
    if (value === undefined) continue;
    if ('wire' in writer) body[writer.wire] = value;
    // Fields that share one converter run it once.
    else if (!converted.has(writer.write)) {
      converted.add(writer.write);
      writer.write(body, request);
    }
  }
  // The plan kept only what this endpoint relays.
  for (const [field, value] of Object.entries(request.passthrough)) body[field] = value;
  return body;
}

/** A 400 naming the caller's field: "top_k is not supported by the OpenAI chat API." (a converter's refusal of a value). */
export function unsendable(
  request: NeutralRequest,
  field: NeutralField | string,
  backend: string,
  why?: string,
): ReturnType<typeof unsupportedParameter> {
  const param = field in NEUTRAL_FIELDS ? paramOf(request, field as NeutralField) : relayedParamOf(request, field);
  return unsupportedParameter(param, `${param} is not supported by ${backend}${why ? `: ${why}` : ''}.`);
}
