/**
 * One caller field in a translation report, by the plan's decision for a
 * neutral field it set (src/backend/field-plan.ts): renamed, converted,
 * emulated, refused or dropped, or no change at all. The one value read from
 * the upstream body is the one under the wire name the decision names, to show it.
 */
import type { Decision } from '../../backend/field-plan.js';
import { NEUTRAL_FIELDS, type NeutralField, type NeutralFieldSpec } from '../../model/neutral-fields.js';
import type { NeutralRequest } from '../../model/request.js';
import type { Change } from './change.js';

export interface FieldContext {
  /** The caller's request as parsed, and its wire body. */
  pristine: NeutralRequest;
  body: Readonly<Record<string, unknown>>;
  /** The first upstream body: read only under the wire names the plan names. */
  sent: Readonly<Record<string, unknown>>;
  /** The backend endpoint as its refusals name it ("the OpenAI chat API"). */
  label: string;
  /** The backend runs in the proxy: its request is no wire a user sees, only its meaning counts. */
  inProcess: boolean;
  /** The caller's dialect and the endpoint share one form of wire body (chat to an OpenAI-compatible chat endpoint). */
  sameForm: boolean;
  /** The caller's conversation fields: what the body's fixed part carries. */
  conversation: ReadonlySet<string>;
  dropping: boolean;
  /** The caller's field the plan names for a neutral field. */
  paramOf(field: NeutralField): string;
  /** The refusals and drops already found, by neutral field. */
  refusedWith: ReadonlyMap<string, Change>;
}

/** The top-level key of a wire field name: `thinking` for `thinking.budget_tokens`, `messages` for `messages[0].content`. */
export const topKey = (wire: string) => wire.split(/[.[]/)[0];

/** `top_k` and `topK` are one name (the bundled worker's request is camelCase). */
const sameName = (a: string, b: string) => a.replace(/_/g, '').toLowerCase() === b.replace(/_/g, '').toLowerCase();

/** A value in a reason: JSON, cut short. */
function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The caller's key of neutral field `field`, by the plan's decision for it; null when nothing changes. */
export function explainField(field: NeutralField, decision: Decision, key: string, context: FieldContext): Change | null {
  const { label, inProcess, sent } = context;
  // A key that sets only a part of the field (top_logprobs of logprobs) shares the field's refusal; its form is the field's.
  if (key !== topKey(context.paramOf(field)) && decision.kind !== 'refuse' && decision.kind !== 'drop') return null;
  const takesItAs = (wire: string): Change => ({
    field: key,
    action: 'converted',
    ...(wire !== key ? { to: wire } : {}),
    lossy: false,
    reason: `${label} takes it as ${wire}: ${short(sent[wire])}`,
  });
  // The value that went out under the wire name the plan names: the caller's as it is (renamed), or in another form.
  const asSent = (wire: string): Change =>
    sameJson(sent[wire], context.body[key])
      ? { field: key, action: 'renamed', to: wire, lossy: false, reason: `${label} calls it ${wire}` }
      : takesItAs(wire);
  switch (decision.kind) {
    case 'copy':
      return inProcess || sameName(decision.wire, key) ? null : asSent(decision.wire);
    case 'convert': {
      if (inProcess) return null;
      const { wire, note } = decision;
      // A converter that names no one field it writes (Mirostat 2.0 as three of llama-server's), or wrote none here, is its note.
      if (wire === undefined || !(wire in sent))
        return wire !== undefined && sameJson(sent[key], context.body[key]) ? null : noteOf(key, note);
      // Written under another field (functions -> tools; Fireworks' thinking as reasoning_effort).
      if (wire !== key) {
        // A converter named after its one field converts (functions, as tools, in the tool's shape).
        if (note === wire) return { field: key, action: 'converted', to: wire, lossy: false, reason: `${label} takes it as ${wire}` };
        return asSent(wire);
      }
      // The same field: no change where it went out as the caller sent it.
      return sameJson(sent[wire], context.body[key]) ? null : takesItAs(wire);
    }
    case 'native':
      // The body's fixed part carries the conversation's own (a prompt of token ids); anything else is the backend's behaviour.
      return inProcess || context.conversation.has(key)
        ? null
        : { field: key, action: 'converted', lossy: false, reason: `not sent: ${decision.note}` };
    case 'emulate':
      return { field: key, action: 'emulated', lossy: false, reason: decision.how };
    case 'refuse':
    case 'drop': {
      // A soft field the plan let go is named by its note; a part of a refused field fares as the field.
      const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
      if (spec.soft) return null;
      const whole = context.refusedWith.get(field);
      return {
        field: key,
        action: context.dropping ? 'dropped' : 'rejected',
        lossy: true,
        reason: whole ? `goes with ${whole.field}: ${decision.reason}` : decision.reason,
      };
    }
    case 'approximate':
      return null;
  }
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const noteOf = (key: string, note: string): Change => ({ field: key, action: 'converted', lossy: false, reason: note });
