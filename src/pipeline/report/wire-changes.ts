/**
 * Renames, conversions and emulations: what a translation does to each field
 * of the caller's body, found by comparing it with the first upstream body and
 * explained by the backend's field table (copy, convert, native, emulate) and
 * by the translation between endpoints. Part of the translation report
 * (translation-report.ts), which adds the refusals and drops the plan notes.
 */
import type { Decision } from '../../backend/field-plan.js';
import type { Dialect } from '../../dialects/dialect.js';
import { isRecord } from '../../model/is-record.js';
import {
  NEUTRAL_FIELD_NAMES,
  NEUTRAL_FIELDS,
  asksFor,
  paramOf,
  type NeutralField,
  type NeutralFieldSpec,
} from '../../model/neutral-fields.js';
import { isPromptBatch } from '../../model/prompt.js';
import type { NeutralRequest } from '../../model/request.js';
import type { DryRun } from './dry-run.js';
import type { RouteMatch } from '../plan/route-table.js';
import { firstDifference, sameJson, short } from './json-differences.js';
import type { Change } from './change.js';

/** The neutral fields the request asks for whose caller's name is `param`. */
export function fieldsNamed(request: NeutralRequest, param: string): NeutralField[] {
  const origins = Object.entries(request.origins) as [string, string][];
  return NEUTRAL_FIELD_NAMES.filter((field) => {
    if (!asksFor(request, field)) return false;
    const { path, named }: NeutralFieldSpec = NEUTRAL_FIELDS[field];
    // A field inside the conversation (a tool result's is_error) is not the conversation's own field.
    return paramOf(request, field) === param || (named === undefined && origins.some(([at, wire]) => wire === param && related(at, path)));
  });
}

const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/** The top-level key of a wire field name: `thinking` for `thinking.budget_tokens`, `messages` for `messages[0].content`. */
const topKey = (wire: string) => wire.split(/[.[]/)[0];

/** `top_k` and `topK` are one name (the bundled worker's request is camelCase). */
const sameName = (a: string, b: string) => a.replace(/_/g, '').toLowerCase() === b.replace(/_/g, '').toLowerCase();

/** Paths the proxy honours itself on every backend (see the fate table's treat-field.ts). */
const PROXY_HONOURED: readonly { path: string; how: string }[] = [{ path: 'perfMetricsInBody', how: 'the proxy reports its own timings' }];

/** `stream_options` keys the proxy honours itself, on every backend. */
const STREAM_OPTIONS_HONOURED: Readonly<Record<string, string>> = {
  include_usage: 'usage is always asked for upstream; the proxy passes it on in the stream only when asked',
  buffer_tokens: 'the proxy buffers and coalesces the stream',
  buffer_ms: 'the proxy buffers and coalesces the stream',
  buffer_mode: 'the proxy buffers and coalesces the stream',
};

/** The keys of the caller's `stream_options` that do not reach the backend as they are. */
function streamOptionChanges(options: Record<string, unknown>, upstream: Record<string, unknown>, internal: boolean): Change[] {
  const sent = isRecord(upstream.stream_options) ? upstream.stream_options : {};
  const changes: Change[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || (!internal && sameJson(sent[key], value))) continue;
    const how = STREAM_OPTIONS_HONOURED[key];
    if (how) changes.push({ field: `stream_options.${key}`, action: 'emulated', lossy: false, reason: how });
  }
  return changes;
}

export interface WireInput {
  pristine: NeutralRequest;
  body: Readonly<Record<string, unknown>>;
  dialect: Dialect;
  match: RouteMatch;
  run: DryRun;
}

/** Renames, conversions and emulations: the caller's body against the first upstream body. */
export function wireChanges({ pristine, body, dialect, match, run }: WireInput, already: readonly Change[]): Change[] {
  const changes: Change[] = [];
  const covered = new Set(already.map((change) => topKey(change.field)));
  // A refused or dropped field is not also converted.
  const lost = new Set(
    already.filter((change) => change.action === 'rejected' || change.action === 'dropped').map((change) => topKey(change.field)),
  );
  const cover = (change: Change) => {
    if (lost.has(topKey(change.field))) return;
    changes.push(change);
    covered.add(topKey(change.field));
  };
  // The plan's decision for each field the caller sent.
  const decisions = new Map(run.fields.fields.map((planned) => [planned.field, planned]));
  const refused = new Map<NeutralField, Change>();
  for (const change of already) {
    if (change.action !== 'rejected' && change.action !== 'dropped') continue;
    for (const { field, param } of run.fields.fields) if (param === change.field) refused.set(field, change);
  }
  // The bundled worker has no URL: it runs in the proxy, and its request is no wire anyone sees.
  const internal = !('url' in match.backend.settings) && !('urls' in match.backend.settings);
  const sent = run.sent[0];
  const upstream = sent.body;
  const upstreamEndpoint = sent.endpoint === 'chat' ? 'chat' : 'text';
  const received = run.received[0];
  const { capabilities } = match.backend.adapter;
  const label = capabilities.label[upstreamEndpoint];
  const mode =
    pristine.endpoint === upstreamEndpoint ? 'native' : pristine.endpoint === 'chat' ? 'chatOverCompletions' : 'completionsOverChat';
  const callerKey = (field: NeutralField) => topKey(paramOf(pristine, field));

  // Fan-out: several upstream requests for one.
  if (run.sent.length > 1) {
    if (pristine.choices > 1 && run.received.every((request) => request.choices === 1)) {
      cover({
        field: 'n',
        action: 'emulated',
        lossy: false,
        reason: `fanned out: one upstream request per choice (${run.sent.length} requests${pristine.sampling.seed !== undefined ? ', seed + j for choice j' : ''})`,
      });
    }
    if (isPromptBatch(pristine.prompt)) {
      cover({
        field: 'prompt',
        action: 'emulated',
        lossy: false,
        reason: `fanned out: one upstream request per prompt (${run.sent.length} requests)`,
      });
    }
  }

  if (mode === 'chatOverCompletions') {
    const template = templateOf(match);
    // A Responses caller's turns come from input and instructions: both are rendered.
    for (const field of Object.keys(body).filter((key) =>
      ['messages', 'input', 'instructions', 'contents', 'systemInstruction'].includes(key),
    )) {
      // Already a lossy change when the template is a guess (the plan's note: guessed-template.ts).
      if (already.some((change) => change.field === field && change.to === 'prompt')) continue;
      cover({
        field,
        action: 'converted',
        to: 'prompt',
        lossy: false,
        reason: `rendered into one prompt with ${template}; the reply's text is read back as the assistant message`,
      });
    }
    const format =
      (match.route?.toolCallFormat ?? match.backend.settings.toolCallFormat ?? 'hermes') === 'hermes'
        ? 'Hermes <tool_call> tags'
        : 'Llama 3 JSON';
    if (asksFor(pristine, 'tools')) {
      const none = pristine.toolChoice === 'none';
      cover({
        field: callerKey('tools'),
        action: 'converted',
        to: 'prompt',
        lossy: false,
        reason: none
          ? 'left out of the prompt (tool_choice "none")'
          : `rendered into the prompt by the chat template; tool calls are parsed back out of the generated text (${format})`,
      });
    }
    if (asksFor(pristine, 'toolChoice')) {
      const grammar = pristine.responseFormat === undefined && received?.responseFormat?.type === 'grammar';
      cover({
        field: callerKey('toolChoice'),
        action: 'emulated',
        lossy: false,
        reason: grammar
          ? "enforced by a grammar that admits only tool calls, their arguments following each tool's schema"
          : pristine.toolChoice === 'none'
            ? 'the tools are left out of the prompt'
            : 'the model sees the tools in the prompt and decides',
      });
    }
    if (asksFor(pristine, 'parallelToolCalls')) {
      cover({
        field: callerKey('parallelToolCalls'),
        action: 'emulated',
        lossy: false,
        reason: 'the proxy parses the tool calls and, when false, returns only the first',
      });
    }
    if (asksFor(pristine, 'reasoning.history')) {
      cover({
        field: callerKey('reasoning.history'),
        action: 'emulated',
        lossy: false,
        reason: "applied to the messages before they are rendered (earlier turns' reasoning kept or left out)",
      });
    }
    const added = stopList(upstream).filter((stop) => !pristine.limits.stop.includes(stop));
    if (added.length > 0) {
      cover({
        field: 'stop',
        action: 'converted',
        lossy: false,
        reason: `the chat template's end of turn ${added.map((stop) => JSON.stringify(stop)).join(', ')} is added to the stop list, so generation ends with the assistant's turn`,
      });
    }
  } else if (mode === 'completionsOverChat') {
    cover({
      field: 'prompt',
      action: 'converted',
      to: 'messages',
      lossy: false,
      reason:
        'sent as the user message of a chat request; reasoning the backend returns apart is put back into the text between think tags',
    });
    if (asksFor(pristine, 'images')) {
      cover({
        field: callerKey('images'),
        action: 'converted',
        to: 'messages',
        lossy: false,
        reason: "image parts of the user message, at the prompt's <image> placeholders",
      });
    }
  }

  if (match.upstreamModel !== pristine.model) {
    cover({
      field: 'model',
      action: 'converted',
      lossy: false,
      reason: `sent upstream as "${match.upstreamModel}" (the route's upstreamModel)`,
    });
  } else if (!('model' in upstream)) {
    cover({ field: 'model', action: 'emulated', lossy: false, reason: 'picks the route; the backend serves the one model it has loaded' });
  }
  covered.add('model');
  covered.add('stream');

  // Every other caller field whose wire differs, explained by the backend's table.
  const callerKeys = new Set(Object.keys(body));
  const origins = Object.entries(pristine.origins) as [string, string][];
  for (const [key, value] of Object.entries(body)) {
    if (covered.has(key) || value === undefined) continue;
    if (key in upstream && sameJson(upstream[key], value)) continue;
    if (key === 'stream_options' && isRecord(value)) {
      changes.push(
        ...streamOptionChanges(value, upstream, internal).filter((change) => !already.some((known) => known.field === change.field)),
      );
      continue;
    }
    const paths = origins.filter(([, wire]) => topKey(wire) === key).map(([path]) => path);
    const at = NEUTRAL_FIELD_NAMES.filter((field) => {
      const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
      return spec.named === undefined && paths.some((path) => related(path, spec.path));
    });
    const fields = at.filter((field) => asksFor(pristine, field));
    if (at.length > 0 && fields.length === 0) continue; // asks for nothing (ignore_eos: false): as if left out
    if (fields.length > 0) {
      const context: FieldContext = {
        key,
        value,
        upstream,
        label,
        internal,
        dropping: match.backend.settings.dropUnsupported === true,
        refused,
        callerKeys,
      };
      // Several neutral fields from one caller field (thinking) that fare alike read as one change.
      for (const field of fields) {
        const planned = decisions.get(field);
        const change = planned ? explainField(field, planned.decision, context) : null;
        if (change && !changes.some((known) => sameJson(known, change))) cover(change);
      }
      continue;
    }
    const honoured = PROXY_HONOURED.filter(({ path }) => paths.some((origin) => related(origin, path)));
    if (honoured.length > 0) {
      cover({ field: key, action: 'emulated', lossy: false, reason: honoured.map(({ how }) => how).join('; ') });
      continue;
    }
    if (key in pristine.passthrough) continue; // relayed as it is (a differing value would be a bug of the relay)
    // A field that becomes another of the backend's (Responses' input and instructions -> messages).
    // (`instructions`, Messages' `system` and Gemini's `systemInstruction` are the first message; `messages` records input as its origin.)
    const becomes =
      (key === 'instructions' || key === 'system' || key === 'systemInstruction') && 'messages' in upstream
        ? 'messages'
        : paths.map((path) => path.split('.')[0]).find((path) => path !== key && path in upstream);
    if (becomes !== undefined) {
      cover({ field: key, action: 'converted', to: becomes, lossy: false, reason: `sent as ${becomes}` });
      continue;
    }
    if (leavesMeaningAlone(dialect, body, key, pristine)) continue; // the default, same as leaving it out
    cover(
      key in upstream
        ? {
            field: key,
            action: 'converted',
            lossy: false,
            reason: `same meaning in the backend's form: ${firstDifference(key, value, upstream[key])}`,
          }
        : { field: key, action: 'emulated', lossy: false, reason: 'taken into account by the proxy; not sent upstream as such' },
    );
  }
  return changes;
}

interface FieldContext {
  /** The caller's top-level key and its value. */
  key: string;
  value: unknown;
  upstream: Record<string, unknown>;
  /** The backend endpoint as its refusals name it ("the OpenAI chat API"). */
  label: string;
  /** The backend runs in the proxy: its request is no wire a user sees, only its meaning counts. */
  internal: boolean;
  dropping: boolean;
  /** The refusals and drops already found, by neutral field: another key of the same field fares the same. */
  refused: ReadonlyMap<NeutralField, Change>;
  /** The caller's top-level keys. */
  callerKeys: ReadonlySet<string>;
}

/** One neutral field of a caller's key, by the plan's decision for it; null when nothing changes. */
function explainField(
  field: NeutralField,
  handling: Decision,
  { key, value, upstream, label, internal, dropping, refused, callerKeys }: FieldContext,
): Change | null {
  switch (handling.kind) {
    case 'copy': {
      // The same name in the backend's form (a stop string as a list) is no change of name or meaning.
      if (internal || sameName(handling.wire, key)) return null;
      const renamed = sameJson(upstream[handling.wire], value);
      return {
        field: key,
        action: renamed ? 'renamed' : 'converted',
        to: handling.wire,
        lossy: false,
        reason: renamed ? `${label} calls it ${handling.wire}` : `${label} takes it as ${handling.wire}: ${short(upstream[handling.wire])}`,
      };
    }
    case 'convert': {
      if (internal) return null;
      // A converter named after the one wire field it writes (functions -> tools).
      const named = /^[a-z_]+$/.test(handling.note);
      if (named && handling.note !== key)
        return { field: key, action: 'converted', to: handling.note, lossy: false, reason: `${label} takes it as ${handling.note}` };
      if (!(key in upstream)) {
        // Written under another name the note mentions (Fireworks' thinking as an integer reasoning_effort).
        const into = Object.keys(upstream).filter((wire) => !callerKeys.has(wire) && new RegExp(`\\b${wire}\\b`).test(handling.note));
        if (into.length === 1 && sameJson(upstream[into[0]], value))
          return { field: key, action: 'renamed', to: into[0], lossy: false, reason: `${label} calls it ${into[0]}` };
        if (into.length === 1)
          return {
            field: key,
            action: 'converted',
            to: into[0],
            lossy: false,
            reason: `${label} takes it as ${into[0]}: ${short(upstream[into[0]])}`,
          };
        return { field: key, action: 'converted', lossy: false, reason: handling.note };
      }
      return {
        field: key,
        action: 'converted',
        lossy: false,
        reason: `${named ? '' : `${handling.note}: `}${firstDifference(key, value, upstream[key])}`,
      };
    }
    case 'native':
      return internal
        ? null
        : { field: key, action: 'converted', lossy: false, reason: key in upstream ? handling.note : `not sent: ${handling.note}` };
    case 'emulate':
      return { field: key, action: 'emulated', lossy: false, reason: handling.how };
    case 'refuse':
    case 'drop': {
      // A soft field the plan let go is named by its note; a part of a refused field fares as the field.
      const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
      if (spec.soft) return null;
      const whole = refused.get(field);
      return {
        field: key,
        action: dropping ? 'dropped' : 'rejected',
        lossy: true,
        reason: whole ? `goes with ${whole.field}: ${handling.reason}` : handling.reason,
      };
    }
    case 'approximate':
      return null;
  }
}

/** A field whose value asks for nothing: the request means the same without it (`n: 1`, `response_format: text`). */
function leavesMeaningAlone(dialect: Dialect, body: Readonly<Record<string, unknown>>, key: string, pristine: NeutralRequest): boolean {
  const { [key]: _left, ...rest } = body;
  try {
    return sameJson(meaningOf(dialect.parseRequest(rest)), meaningOf(pristine));
  } catch {
    return false;
  }
}

function meaningOf(request: NeutralRequest): unknown {
  const { origins: _origins, warnings: _warnings, ...rest } = request;
  return rest;
}

function stopList(body: Record<string, unknown>): string[] {
  const stop = body.stop;
  return Array.isArray(stop) ? stop.filter((item): item is string => typeof item === 'string') : typeof stop === 'string' ? [stop] : [];
}

/** Which template renders chat into a prompt, in words. */
function templateOf({ backend, route }: RouteMatch): string {
  const configured = route?.chatTemplate ?? backend.settings.chatTemplate;
  if (!configured && !backend.adapter.chatTemplate && backend.adapter.chatTemplatePending)
    return "the model's own chat template (read from the model when it loads; ChatML if it has none)";
  if (configured === 'chatml' || (!configured && !backend.adapter.chatTemplate)) return 'the ChatML chat template';
  return configured ? 'the configured chat template' : "the model's own chat template";
}
