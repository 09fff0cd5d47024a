/**
 * The field plan of one planned request (src/backend/field-plan.ts): for each
 * field the caller sent, what the plan noted for it (refused, dropped,
 * approximated), else what the backend's table does with it on the endpoint
 * the request goes to, else the proxy's own emulation. Part of the plan step (plan.ts).
 */
import type { BackendCapabilities } from '../../backend/adapter.js';
import type { Decision, FieldPlan, PlannedField } from '../../backend/field-plan.js';
import { handlingOf } from '../../backend/field-support.js';
import { NEUTRAL_FIELD_NAMES, asksFor, paramOf, relayedParamOf, type NeutralField } from '../../model/neutral-fields.js';
import type { Endpoint, NeutralRequest } from '../../model/request.js';
import type { PlanNote } from './plan-notes.js';

export interface FieldPlanFor {
  capabilities: BackendCapabilities;
  /** The endpoint the request goes to. */
  upstream: Endpoint;
  /** The fields the proxy provides itself in this translation between endpoints. */
  emulated: ReadonlySet<NeutralField>;
  /** Under dropUnsupported a refusal is a drop. */
  dropping: boolean;
}

export function fieldPlanOf(
  parsed: NeutralRequest,
  notes: readonly PlanNote[],
  { capabilities, upstream, emulated, dropping }: FieldPlanFor,
): FieldPlan {
  const noted = new Map<string, PlanNote>();
  for (const note of notes) if (!noted.has(note.param)) noted.set(note.param, note);
  const fields: PlannedField[] = [];
  for (const field of NEUTRAL_FIELD_NAMES) {
    if (!asksFor(parsed, field)) continue;
    const param = paramOf(parsed, field);
    const note = noted.get(param);
    fields.push({ field, param, decision: note ? decisionOf(note, dropping) : tableDecision(capabilities, field, upstream, emulated) });
  }
  const relayed = Object.keys(parsed.passthrough).map((key) => {
    const param = relayedParamOf(parsed, key);
    const note = noted.get(param);
    return {
      param,
      decision: !note
        ? ({ kind: 'copy', wire: key } as const)
        : note.kind === 'refused' && !dropping
          ? ({ kind: 'refuse', reason: note.reason } as const)
          : ({ kind: 'drop', reason: note.reason } as const),
    };
  });
  return { endpoint: upstream, fields, relayed };
}

function decisionOf(note: PlanNote, dropping: boolean): Decision {
  if (note.kind === 'approximated') return { kind: 'approximate', wire: note.to ?? note.param, reason: note.reason };
  if (note.kind === 'refused' && !dropping) return { kind: 'refuse', reason: note.reason };
  return { kind: 'drop', reason: note.reason };
}

function tableDecision(
  capabilities: BackendCapabilities,
  field: NeutralField,
  upstream: Endpoint,
  emulated: ReadonlySet<NeutralField>,
): Decision {
  if (emulated.has(field)) return { kind: 'emulate', how: 'the proxy renders the prompt' };
  const handling = handlingOf(capabilities.fields, field, upstream);
  switch (handling.kind) {
    case 'copy':
      return { kind: 'copy', wire: handling.wire };
    case 'convert':
      return { kind: 'convert', note: handling.note, ...(handling.wire ? { wire: handling.wire } : {}) };
    case 'native':
      return { kind: 'native', note: handling.note };
    case 'emulate':
      return { kind: 'emulate', how: handling.how };
    case 'unsupported':
      return { kind: 'refuse', reason: handling.why };
  }
}
