/**
 * The field plan: what happens to each field a caller sent, on the one
 * backend endpoint the request goes to, decided once per request by the plan
 * (src/pipeline/plan/plan.ts) and read by everything after it: the wire
 * builder (write-fields.ts), the renaming of upstream errors
 * (caller-errors.ts), the translation report and `x-dialect-warnings`.
 *
 * @example
 * // A chat caller's top_k and service_tier on an OpenAI backend:
 * { endpoint: 'chat', fields: [
 *   { field: 'sampling.topK', param: 'top_k', decision: { kind: 'refuse', reason: '...' } },
 *   { field: 'serviceTier', param: 'service_tier', decision: { kind: 'copy', wire: 'service_tier' } } ],
 *   relayed: [] }
 */
import type { NeutralField } from '../model/neutral-fields.js';
import type { Endpoint } from '../model/request.js';

export type Decision =
  /** Sent under this wire name, value unchanged. */
  | { kind: 'copy'; wire: string }
  /** Sent through the kind's converter (`note` says into what; `wire`: the field it writes, when it names one). */
  | { kind: 'convert'; note: string; wire?: string }
  /** Taken as it is by the body's fixed part, or the backend's own behaviour. */
  | { kind: 'native'; note: string }
  /** The proxy does it itself; nothing is sent. */
  | { kind: 'emulate'; how: string }
  /** Sent in another, less exact form (`wire`: what it went out as). */
  | { kind: 'approximate'; wire: string; reason: string }
  /** Not sent: a soft or offered field the backend has no place for, or dropUnsupported. */
  | { kind: 'drop'; reason: string }
  /** The backend cannot take it: a 400 naming `param`. */
  | { kind: 'refuse'; reason: string };

export interface PlannedField {
  field: NeutralField;
  /** The caller's wire field it came from. */
  param: string;
  decision: Decision;
}

export interface PlannedRelay {
  /** The caller's field, relayed verbatim when the backend takes it (`request.passthrough`). */
  param: string;
  decision: Extract<Decision, { kind: 'copy' | 'drop' | 'refuse' }>;
}

export interface FieldPlan {
  /** The endpoint the backend is sent (a chat request rendered into a prompt goes to `text`). */
  endpoint: Endpoint;
  /** Each neutral field the caller asked for, in the tables' order. */
  fields: PlannedField[];
  relayed: PlannedRelay[];
}

/**
 * The caller's field that an upstream wire field came from: the one whose wire path is the
 * longest that `wire` is, or is inside (`generationConfig.thinkingConfig.thinkingBudget` came
 * from the field sent as `generationConfig.thinkingConfig`); undefined when none did, or when
 * two fields could have.
 */
export function callerFieldOf(plan: FieldPlan, wire: string): string | undefined {
  let found: string | undefined;
  let longest = 0;
  let ambiguous = false;
  for (const { param, decision } of plan.fields) {
    const path = wirePathOf(decision);
    if (path === undefined || !isWithin(wire, path) || path.length < longest) continue;
    ambiguous = path.length === longest ? ambiguous || found !== param : false;
    found = param;
    longest = path.length;
  }
  if (found !== undefined) return ambiguous ? undefined : found;
  for (const { param, decision } of plan.relayed) if (decision.kind === 'copy' && param === wire) return param;
  return undefined;
}

/** The wire path a decision writes: a copy's name, or the dotted path a converter's note starts with. */
function wirePathOf(decision: Decision): string | undefined {
  if (decision.kind === 'copy' || decision.kind === 'approximate') return decision.wire;
  if (decision.kind !== 'convert' || decision.wire === undefined) return undefined;
  return /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/.exec(decision.note)?.[0] ?? decision.wire;
}

const isWithin = (wire: string, path: string) =>
  wire === path || (wire.startsWith(path) && (wire[path.length] === '.' || wire[path.length] === '['));
