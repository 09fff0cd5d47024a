/**
 * What one backend does with one wire field: each sample value is dry-run
 * against a baseline without it, and the difference is the answer. Rejected:
 * the plan or the adapter answers 400. Emulated: the proxy fans out, renders
 * the field into a prompt, translates it, or honours it itself. Native: the
 * field's effect reaches the backend's own wire. Ignored: it reaches nothing.
 */
import type { FieldRule } from '../../dialects/field-table.js';
import { ProxyError } from '../../errors/proxy-error.js';
import type { Endpoint, NeutralRequest } from '../../model/request.js';
import type { Adapter } from '../../backend/adapter.js';
import { dryRun as dryRunRoute, type DryRun, type SentCall } from '../../pipeline/report/dry-run.js';
import { supports } from '../../backend/capabilities.js';
import { handlingOf } from '../../backend/field-support.js';
import { NEUTRAL_FIELD_NAMES, asksFor } from '../../model/neutral-fields.js';
import type { DocumentName } from '../../validation/load-openapi-document.js';
import type { LoadedProfile } from './backend-profiles.js';
import { BASE_BODIES, samplesFor, type FieldSample } from './field-samples.js';

export type Outcome = 'native' | 'emulated' | 'rejected' | 'ignored' | 'n/a';

export interface Treatment {
  outcome: Outcome;
  /** How it is emulated, why it is rejected or ignored. */
  detail?: string;
  /** The sample this applies to, when the field's samples fare differently. */
  label?: string;
}

export interface FieldUnderTest {
  /** The neutral endpoint the dialect parses to (the Responses dialect's is chat). */
  endpoint: Endpoint;
  /** The dialect's OpenAPI document: its samples and base body have that wire shape. */
  document: DocumentName;
  parse(body: Record<string, unknown>): NeutralRequest;
  field: string;
  rule: FieldRule;
}

/** Neutral paths the proxy honours itself on every backend (handle-request.ts and the dialect serializers). */
const PROXY_HONOURED: readonly { path: string; how: string }[] = [
  { path: 'model', how: 'picks the route; the backend serves the one model it loaded' },
  { path: 'stream.coalesce', how: 'the proxy buffers and coalesces the stream (streaming/coalesce-events.ts)' },
  { path: 'stream.includeUsage', how: 'usage is always asked for upstream; the proxy adds it to the stream or not' },
  { path: 'perfMetricsInBody', how: 'the proxy reports its own timings (pipeline/answer/request-meter.ts)' },
  { path: 'parallelToolCalls', how: 'the proxy parses the tool calls and, when false, returns only the first (emulate/chat-over-text.ts)' },
];

const DROP_NOTE = ' (or dropped with a warning when dropUnsupported)';

const KEPT_NOTE = 'kept by the proxy and repeated in the answer (the Response object); nothing is sent upstream';

/** The dry run on a profile: its capabilities and wire builder stand in for a started adapter. */
function dryRun(request: NeutralRequest, profile: LoadedProfile, options: { dropUnsupported?: boolean } = {}): Promise<DryRun> {
  const never = () => {
    throw new Error('a dry run never calls the backend');
  };
  const adapter: Adapter = {
    name: profile.name,
    capabilities: profile.capabilities,
    toWire: profile.toWire,
    complete: never,
    stream: never,
  };
  return dryRunRoute(
    request,
    { backend: { name: profile.name, settings: profile.settings, adapter }, upstreamModel: request.model },
    options,
  );
}

/** One treatment per sample, merged into one when all samples fare alike. */
export async function treatField(subject: FieldUnderTest, profile: LoadedProfile): Promise<Treatment[]> {
  if (subject.rule.fate === 'reject') return [{ outcome: 'n/a' }];
  const samples = samplesFor(subject.field, subject.document);
  if (samples.length === 0) throw new Error(`fields: no sample value for ${subject.field} (src/commands/fields/field-samples.ts)`);
  const treatments: Treatment[] = [];
  for (const sample of samples) treatments.push(await treatSample(subject, sample, profile));
  const alike = treatments.every((treatment) => treatment.outcome === treatments[0].outcome && treatment.detail === treatments[0].detail);
  if (alike) return [treatments[0]];
  return treatments.map((treatment, i) => ({ label: samples[i].label ?? JSON.stringify(samples[i].value), ...treatment }));
}

async function treatSample(subject: FieldUnderTest, sample: FieldSample, profile: LoadedProfile): Promise<Treatment> {
  const baseBody = { ...BASE_BODIES[subject.document], ...sample.with };
  const body = { ...baseBody, [subject.field]: sample.value };
  const parse = (wire: Record<string, unknown>): NeutralRequest => {
    try {
      return subject.parse(structuredClone(wire));
    } catch (error) {
      throw new Error(`fields: the sample ${JSON.stringify(wire)} for ${subject.field} does not parse: ${(error as Error).message}`, {
        cause: error,
      });
    }
  };
  const callerBase = parse(baseBody);
  let caller: NeutralRequest;
  try {
    caller = subject.parse(structuredClone(body));
  } catch (error) {
    // A map rule that refuses some values (modalities: audio): the dialect's 400, on every backend.
    if (error instanceof ProxyError) return { outcome: 'rejected', detail: `by the dialect: ${error.message}` };
    throw error;
  }
  if (stableJson(neutralOf(callerBase)) === stableJson(neutralOf(caller))) {
    const warnings = caller.warnings.filter((warning) => !callerBase.warnings.includes(warning));
    if (warnings.length > 0) return { outcome: 'ignored', detail: `with a warning: ${warnings.join('; ')}` };
    if (keptForTheAnswer(subject.field, callerBase, caller)) return { outcome: 'emulated', detail: KEPT_NOTE };
    return { outcome: 'native', detail: 'the default: same as leaving it out' };
  }

  let base: DryRun;
  let run: DryRun;
  try {
    base = await dryRun(parse(baseBody), profile);
    run = await dryRun(parse(body), profile);
  } catch (error) {
    if (!(error instanceof ProxyError)) throw error;
    const droppable = await dryRun(parse(body), profile, { dropUnsupported: true }).then(
      () => true,
      () => false,
    );
    return { outcome: 'rejected', detail: shortReason(error.message, subject.field) + (droppable ? DROP_NOTE : '') };
  }
  return classify({ subject, callerBase, caller, base, run, profile });
}

interface Observation {
  subject: FieldUnderTest;
  callerBase: NeutralRequest;
  caller: NeutralRequest;
  base: DryRun;
  run: DryRun;
  profile: LoadedProfile;
}

function classify({ subject, callerBase, caller, base, run, profile }: Observation): Treatment {
  if (run.sent.length !== base.sent.length) {
    const perChoice = caller.choices > 1 && run.received.every((request) => request.choices === 1);
    return { outcome: 'emulated', detail: `fanned out: one upstream request per ${perChoice ? 'choice' : 'prompt'}` };
  }
  const warnings = run.warnings.filter((warning) => !base.warnings.includes(warning));
  const changed = changedKeys(base.sent[0], run.sent[0]);
  if (changed.length === 0) {
    const proxy = PROXY_HONOURED.filter(({ path }) => stableJson(valueAt(callerBase, path)) !== stableJson(valueAt(caller, path)));
    if (proxy.length > 0) return { outcome: 'emulated', detail: proxy.map(({ how }) => how).join('; ') };
    // A feature the backend claims and always returns (token ids): the dialect shows it when asked.
    const provided = NEUTRAL_FIELD_NAMES.some(
      (field) => asksFor(caller, field) && !asksFor(callerBase, field) && supports(profile.capabilities, field),
    );
    if (provided) return { outcome: 'native' };
    if (warnings.length > 0) return { outcome: 'ignored', detail: `with a warning: ${warnings.join('; ')}` };
    return { outcome: 'ignored', detail: 'nothing of it reaches the backend (a silent drop)' };
  }
  const sentBody = run.sent[0].body;
  if (caller.responseFormat === undefined && run.received[0]?.responseFormat?.type === 'grammar') {
    return {
      outcome: 'emulated',
      detail:
        "enforced by a grammar that admits only tool calls, their arguments following each tool's schema (emulate/tool-call-grammar.ts)",
    };
  }
  // By the neutral endpoint, not the wire: a Responses request is a chat request here, its input items the messages.
  if (subject.endpoint === 'chat' && !('messages' in sentBody) && changed.every((key) => key === 'prompt')) {
    return { outcome: 'emulated', detail: 'rendered into the prompt by the chat template (ChatML unless configured)' };
  }
  if (subject.endpoint === 'text' && 'messages' in sentBody && changed.every((key) => key === 'messages')) {
    return { outcome: 'emulated', detail: 'sent as the user message of a chat request' };
  }
  // Custom tools the backend takes as functions: the proxy carries them (emulate/custom-tools.ts).
  const customTools = caller.tools?.some((tool) => tool.custom) && !callerBase.tools?.some((tool) => tool.custom);
  const carried =
    customTools && run.received[0] ? handlingOf(profile.capabilities.fields, 'tools:custom', run.received[0].endpoint) : undefined;
  if (carried?.kind === 'emulate') return { outcome: 'emulated', detail: carried.how };
  if (warnings.length > 0) return { outcome: 'emulated', detail: warnings.join('; ') };
  return { outcome: 'native' };
}

/** Top-level wire keys (and the call: stream or complete) that differ. */
function changedKeys(before: SentCall, after: SentCall): string[] {
  const a: Record<string, unknown> = { '(call)': before.call, ...before.body };
  const b: Record<string, unknown> = { '(call)': after.call, ...after.body };
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => stableJson(a[key]) !== stableJson(b[key]));
}

/** The request's meaning: without the bookkeeping (`origins`, `warnings`) and the parameters the answer only repeats (`echoedParams`). */
function neutralOf(request: NeutralRequest): unknown {
  const { origins: _origins, warnings: _warnings, echoedParams: _echoed, ...rest } = request;
  return rest;
}

/**
 * A field that sets nothing of the neutral request but that the answer repeats
 * (the Responses dialect's `metadata`, `max_tool_calls`): the proxy keeps it.
 * One that maps onto a neutral field, set to its default (`truncation: 'auto'`),
 * is the default instead.
 */
function keptForTheAnswer(field: string, callerBase: NeutralRequest, caller: NeutralRequest): boolean {
  const repeated = stableJson(callerBase.echoedParams?.[field]) !== stableJson(caller.echoedParams?.[field]);
  const mapped = Object.values(caller.origins).some((origin) => origin === field || origin?.startsWith(`${field}.`));
  return repeated && !mapped;
}

function valueAt(request: NeutralRequest, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), request);
}

/** JSON with sorted keys, so insertion order does not count as a difference. */
function stableJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
      return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }) ?? 'undefined'
  );
}

/**
 * The 400's message, shortened for a table cell: without the configured
 * backend's name (the table is about the kind) and without the field's own
 * name when it opens the sentence (`top_k is not supported...` -> `not supported...`).
 */
function shortReason(message: string, field: string): string {
  const withoutBackend = message.replace(/ \(backend "[^"]*", kind [^)]*\)\.?$/, '').replace(/ for backend "[^"]*"/, '');
  return withoutBackend.startsWith(`${field} is `) ? withoutBackend.slice(field.length + 4) : withoutBackend;
}
