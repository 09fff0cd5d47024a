/**
 * Renames, conversions and emulations, read from the plan: what the plan
 * decided for each field the caller sent (its field plan), how it reaches the
 * backend's endpoint (its mode, its fan-out, what rendering a prompt adds), the
 * route's upstream model, and the dialect's word on its own fields (its
 * conversation, its stream options: dialect-wire.ts). Part of the translation
 * report (translation-report.ts), which adds the refusals and drops the plan notes.
 */
import type { Dialect } from '../../dialects/dialect.js';
import { isRecord } from '../../model/is-record.js';
import { NEUTRAL_FIELDS, type NeutralField, type NeutralFieldSpec } from '../../model/neutral-fields.js';
import type { NeutralRequest } from '../../model/request.js';
import type { DryRun } from './dry-run.js';
import type { RouteMatch } from '../plan/route-table.js';
import type { Change } from './change.js';
import { explainField, topKey, type FieldContext } from './explain-field.js';
import { templateOf } from './template-in-words.js';

export interface PlanInput {
  pristine: NeutralRequest;
  body: Readonly<Record<string, unknown>>;
  dialect: Dialect;
  match: RouteMatch;
  run: DryRun;
}

/** What the plan does to each caller field it changes; `already`: the plan notes and warnings, each field listed once. */
export function planChanges({ pristine, body, dialect, match, run }: PlanInput, already: readonly Change[]): Change[] {
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
  const { mode, fanOut, rendering } = run.plan;
  const { adapter } = match.backend;
  const endpoint = run.fields.endpoint;
  const label = adapter.capabilities.label[endpoint];
  const upstream = adapter.capabilities.conversation[endpoint];
  const conversation = Object.keys(body).filter((key) => key in dialect.wire.conversation);
  const plannedAt = (key: string) => run.fields.fields.filter(({ field, param }) => topKey(param) === key || setBy(pristine, key, field));
  const callerKey = (field: string) => plannedAt(topKey(field))[0]?.param;
  const asked = (field: string) => run.fields.fields.some((planned) => planned.field === field);
  const keyOf = (field: string) => topKey(run.fields.fields.find((planned) => planned.field === field)?.param ?? field);

  if (fanOut.choices) {
    const seeded = pristine.sampling.seed !== undefined ? ', seed + j for choice j' : '';
    cover({
      field: 'n',
      action: 'emulated',
      lossy: false,
      reason: `fanned out: one upstream request per choice (${run.sent.length} requests${seeded})`,
    });
  }
  if (fanOut.prompts)
    cover({
      field: 'prompt',
      action: 'emulated',
      lossy: false,
      reason: `fanned out: one upstream request per prompt (${run.sent.length} requests)`,
    });

  if (mode === 'chatOverCompletions') {
    const template = templateOf(match);
    for (const field of conversation) {
      // Already a lossy change when the template is a guess (the plan's note: guessed-template.ts).
      if (already.some((change) => change.field === field && change.to === 'prompt')) continue;
      cover({
        field,
        action: 'converted',
        to: upstream.turns,
        lossy: false,
        reason: `rendered into one prompt with ${template}; the reply's text is read back as the assistant message`,
      });
    }
    const format =
      (match.route?.toolCallFormat ?? match.backend.settings.toolCallFormat ?? 'hermes') === 'hermes'
        ? 'Hermes <tool_call> tags'
        : 'Llama 3 JSON';
    const none = pristine.toolChoice === 'none';
    if (asked('tools'))
      cover({
        field: keyOf('tools'),
        action: 'converted',
        to: upstream.turns,
        lossy: false,
        reason: none
          ? 'left out of the prompt (tool_choice "none")'
          : `rendered into the prompt by the chat template; tool calls are parsed back out of the generated text (${format})`,
      });
    if (asked('toolChoice'))
      cover({
        field: keyOf('toolChoice'),
        action: 'emulated',
        lossy: false,
        reason: rendering?.toolChoiceGrammar
          ? "enforced by a grammar that admits only tool calls, their arguments following each tool's schema"
          : none
            ? 'the tools are left out of the prompt'
            : 'the model sees the tools in the prompt and decides',
      });
    if (asked('parallelToolCalls'))
      cover({
        field: keyOf('parallelToolCalls'),
        action: 'emulated',
        lossy: false,
        reason: 'the proxy parses the tool calls and, when false, returns only the first',
      });
    if (asked('reasoning.history'))
      cover({
        field: keyOf('reasoning.history'),
        action: 'emulated',
        lossy: false,
        reason: "applied to the messages before they are rendered (earlier turns' reasoning kept or left out)",
      });
    const added = rendering?.addedStops ?? [];
    if (added.length > 0)
      cover({
        field: callerKey('limits.stop') ?? 'stop',
        action: 'converted',
        lossy: false,
        reason: `the chat template's end of turn ${added.map((stop) => JSON.stringify(stop)).join(', ')} is added to the stop list, so generation ends with the assistant's turn`,
      });
  } else if (mode === 'completionsOverChat') {
    for (const field of conversation)
      cover({
        field,
        action: 'converted',
        to: upstream.turns,
        lossy: false,
        reason:
          'sent as the user message of a chat request; reasoning the backend returns apart is put back into the text between think tags',
      });
    if (asked('images'))
      cover({
        field: keyOf('images'),
        action: 'converted',
        to: upstream.turns,
        lossy: false,
        reason: "image parts of the user message, at the prompt's <image> placeholders",
      });
  }

  // The bundled worker runs in the proxy: no URL, and a request no one sees on a wire, only its meaning counts.
  const inProcess = adapter.paths === undefined;
  if (match.upstreamModel !== pristine.model)
    cover({
      field: 'model',
      action: 'converted',
      lossy: false,
      reason: `sent upstream as "${match.upstreamModel}" (the route's upstreamModel)`,
    });
  else if (inProcess)
    cover({ field: 'model', action: 'emulated', lossy: false, reason: 'picks the route; the backend serves the one model it has loaded' });
  covered.add('model');
  // Whether to stream is the request's own; what the proxy does with a stream is its options'.
  covered.add('stream');

  const context: FieldContext = {
    pristine,
    body,
    sent: run.sent[0].body,
    label,
    inProcess,
    sameForm: mode === 'native' && dialect.wire.form === upstream.form,
    conversation: new Set(conversation),
    dropping: match.backend.settings.dropUnsupported === true,
    refusedWith: refusedFields(run, already),
    paramOf: (field) => run.fields.fields.find((planned) => planned.field === field)?.param ?? field,
  };
  for (const [key, value] of Object.entries(body)) {
    if (covered.has(key) || value === undefined || value === null) continue;
    // The conversation in its own fields, sent as the backend's: the same where both speak one form.
    const part = dialect.wire.conversation[key];
    if (part !== undefined) {
      if (context.sameForm || inProcess) continue;
      const to = upstream[part];
      // Another form of wire body that happens to write these turns alike (plain user text) changes nothing.
      if (to === key && JSON.stringify(context.sent[to]) === JSON.stringify(value)) continue;
      cover({
        field: key,
        action: 'converted',
        ...(to !== key ? { to } : {}),
        lossy: false,
        reason: to !== key ? `sent as ${to}` : `${label} takes it in its own form`,
      });
      continue;
    }
    if (key === 'stream_options' && isRecord(value)) {
      for (const change of streamOptionChanges(dialect, value, inProcess))
        if (!already.some((known) => known.field === change.field)) changes.push(change);
      continue;
    }
    // Relayed as it is; a refusal or drop of it is the plan's note.
    if (run.fields.relayed.some(({ param }) => topKey(param) === key)) continue;
    const planned = plannedAt(key);
    if (planned.length > 0) {
      // Several neutral fields from one caller field (thinking) that fare alike read as one change.
      for (const { field, decision } of planned) {
        const change = explainField(field, decision, key, context);
        if (change && !changes.some((known) => sameChange(known, change))) cover(change);
      }
      continue;
    }
    if (dialect.wire.keptByTheProxy?.includes(key))
      cover({ field: key, action: 'emulated', lossy: false, reason: 'taken into account by the proxy; not sent upstream as such' });
  }
  return changes;
}

/**
 * The caller's key set a part of the neutral field (mirostat_lr, of the Mirostat
 * sampler whose param is mirostat_target), by the parse's record of origins.
 */
function setBy(pristine: NeutralRequest, key: string, field: NeutralField): boolean {
  const { path, named }: NeutralFieldSpec = NEUTRAL_FIELDS[field];
  if (named !== undefined) return false;
  const related = (at: string) => at === path || at.startsWith(`${path}.`) || path.startsWith(`${at}.`);
  return Object.entries(pristine.origins).some(([at, wire]) => wire !== undefined && topKey(wire) === key && related(at));
}

/** The keys of the caller's `stream_options` the proxy honours itself (the dialect says which). */
function streamOptionChanges(dialect: Dialect, options: Record<string, unknown>, inProcess: boolean): Change[] {
  const honoured = dialect.wire.streamOptions ?? {};
  const changes: Change[] = [];
  for (const [key, value] of Object.entries(options)) {
    const option = honoured[key];
    if (!option || value === undefined || value === null) continue;
    // What the proxy asks upstream anyway is no change, where there is an upstream wire.
    if (!inProcess && 'unless' in option && option.unless === value) continue;
    changes.push({ field: `stream_options.${key}`, action: 'emulated', lossy: false, reason: option.how });
  }
  return changes;
}

/** The refusals and drops already found, by neutral field: another key of the same field fares the same. */
function refusedFields(run: DryRun, already: readonly Change[]): FieldContext['refusedWith'] {
  const refused: Map<string, Change> = new Map();
  for (const change of already) {
    if (change.action !== 'rejected' && change.action !== 'dropped') continue;
    for (const { field, param } of run.fields.fields) if (param === change.field) refused.set(field, change);
  }
  return refused;
}

const sameChange = (a: Change, b: Change) =>
  a.field === b.field && a.action === b.action && a.to === b.to && a.lossy === b.lossy && a.reason === b.reason;
