/**
 * Applies a backend's field table to the wire body it builds: plain copies
 * under their wire names, converters once each, and the last guard before the
 * wire: a field this endpoint cannot take is a 400 naming the caller's field,
 * never a silent drop. The plan normally refuses such fields first; the guard
 * catches what the plan cannot see per endpoint (tools on legacy completions).
 */
import { unsupportedParameter } from '../errors/proxy-error.js';
import {
  NEUTRAL_FIELD_NAMES,
  NEUTRAL_FIELDS,
  asksFor,
  paramOf,
  relayedParamOf,
  type NeutralField,
  type NeutralFieldSpec,
} from '../model/neutral-fields.js';
import type { NeutralRequest } from '../model/request.js';
import { handlingOf, type BackendTable, type WireBody, type WriteField } from './field-support.js';

/**
 * @example
 * const body = { model: request.model, prompt: request.prompt };
 * writeFields(body, request, table); // adds top_k, max_tokens, ... or throws a 400
 */
export function writeFields(body: WireBody, request: NeutralRequest, table: BackendTable): WireBody {
  const { endpoint } = request;
  const label = table.label[endpoint];
  const written = new Set<WriteField>();
  for (const field of NEUTRAL_FIELD_NAMES) {
    const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
    const value = spec.value(request);
    if (value === undefined) continue;
    const handling = handlingOf(table.fields, field, endpoint);
    switch (handling.kind) {
      case 'copy':
        body[handling.wire] = value;
        break;
      case 'convert':
        if (!written.has(handling.write)) {
          written.add(handling.write);
          handling.write(body, request);
        }
        break;
      case 'unsupported':
        if (asksFor(request, field) && !leftOut(spec, table, field)) throw unsendable(request, field, label, handling.why);
        break;
      case 'native':
      case 'emulate':
        break;
    }
  }
  const relayed = table.relayed[endpoint];
  for (const [field, value] of Object.entries(request.passthrough)) {
    if (!relayed.has(field)) throw unsendable(request, field, label);
    body[field] = value;
  }
  return body;
}

/**
 * A soft field (end-user ids, cache keys) that the backend has on no endpoint
 * was named in a warning by the plan, which let it go: it is left out here. One
 * the backend's other endpoint takes got through the plan and is a 400.
 */
function leftOut(spec: NeutralFieldSpec, table: BackendTable, field: NeutralField): boolean {
  return (
    spec.soft === true &&
    handlingOf(table.fields, field, 'chat').kind === 'unsupported' &&
    handlingOf(table.fields, field, 'text').kind === 'unsupported'
  );
}

/** A 400 naming the caller's field: "top_k is not supported by the OpenAI chat API." */
export function unsendable(
  request: NeutralRequest,
  field: NeutralField | string,
  backend: string,
  why?: string,
): ReturnType<typeof unsupportedParameter> {
  const param = field in NEUTRAL_FIELDS ? paramOf(request, field as NeutralField) : relayedParamOf(request, field);
  return unsupportedParameter(param, `${param} is not supported by ${backend}${why ? `: ${why}` : ''}.`);
}
