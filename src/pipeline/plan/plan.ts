/**
 * The plan step: the one place that decides how a neutral request reaches its
 * backend. It checks the request against the backend's capabilities (400 or,
 * with `dropUnsupported`, a warning), and wraps the adapter in the emulations
 * the backend needs: chat over completions, completions over chat, prompt
 * batches and `n` fanned out. It plans on its own copy: the caller's request
 * is never changed, so each fallback plans from it again.
 */
import type { Adapter } from '../../backend/adapter.js';
import { choicesAreNative, supports } from '../../backend/capabilities.js';
import type { FieldPlan } from '../../backend/field-plan.js';
import { handlingOf, type FieldHandling, type FieldSupport, type FieldValues, type PerEndpoint } from '../../backend/field-support.js';
import { DEFAULT_LIMITS, type ModelFormat, type ProxyLimits } from '../../config/settings.js';
import { invalidRequest, type ProxyError } from '../../errors/proxy-error.js';
import {
  NEUTRAL_FIELD_NAMES,
  NEUTRAL_FIELDS,
  asksFor,
  paramOf,
  relayedParamOf,
  type NeutralField,
  type NeutralFieldSpec,
} from '../../model/neutral-fields.js';
import { isPromptBatch } from '../../model/prompt.js';
import type { Endpoint, NeutralRequest } from '../../model/request.js';
import { callerErrors, inCallerTerms } from './caller-errors.js';
import { OWN_FIX, PlanNotes, type PlanNote } from './plan-notes.js';
import { planReasoning } from './plan-reasoning.js';
import { fieldPlanOf } from './field-plan-of.js';
import { noteGuessedTemplate } from './guessed-template.js';
import { chatOverText, endOfTurnStops, type ChatOverTextOptions } from './emulate/chat-over-text.js';
import { customToolsAsFunctions, unwrapCustomCalls } from './emulate/custom-tools.js';
import type { Engine } from './emulate/engine.js';
import { fanOutChoices } from './emulate/fan-out-choices.js';
import { fanOutPrompts } from './emulate/fan-out-prompts.js';
import { regexToGbnf } from './emulate/regex-gbnf.js';
import { textOverChat } from './emulate/text-over-chat.js';
import type { GrammarBudget, GrammarTool } from './emulate/tool-call-grammar.js';
import { cachedToolCallGrammar } from './emulate/cached-tool-call-grammar.js';
import type { Backend, RouteMatch } from './route-table.js';

export interface Plan {
  /** Its failures name the caller's fields (caller-errors.ts): `complete`'s rejections and a stream's error events alike. */
  engine: Engine;
  /** The plan's own copy of the request, as the engine receives it (upstream model name set, drops made). */
  request: NeutralRequest;
  /** What it refused, left out or approximated, as data (the translation report's). */
  notes: readonly PlanNote[];
  /** The parse's warnings, then the plan's; the adapter adds its own as it builds the wire body. */
  warnings: string[];
  /** The backend's own endpoint, or the translation between endpoints the proxy makes to reach it. */
  mode: TranslationMode;
  /** The endpoint the backend is sent (a chat request rendered into a prompt is a text completion there). */
  upstream: Endpoint;
  /** Each field the caller sent and its fate on `upstream` (src/backend/field-plan.ts). */
  fields: FieldPlan;
  /** The upstream requests one request becomes: one per choice (`n` where the backend has none), one per prompt of a batch. */
  fanOut: FanOut;
  /** Where the proxy renders chat into a prompt (chatOverCompletions): what the rendering adds. */
  rendering?: Rendering;
  /** With `collectRefusals`: the first refusal, the error a caller gets (the others are in `notes` and `fields`). */
  refusal?: ProxyError;
}

export interface FanOut {
  choices: boolean;
  prompts: boolean;
}

export interface Rendering {
  /** The stops the chat template's end of turn adds to the caller's. */
  addedStops: readonly string[];
  /** tool_choice is enforced by a grammar that admits only tool calls. */
  toolChoiceGrammar: boolean;
}

export type TranslationMode = 'native' | 'chatOverCompletions' | 'completionsOverChat';

export interface PlanOptions {
  /** What a grammar built from tools may cost (`limits.grammarBytes`, `limits.grammarMs`); DEFAULT_LIMITS' by default. */
  limits?: Pick<ProxyLimits, 'grammarBytes' | 'grammarMs'>;
  /** Note every refusal and plan on without the refused fields, throwing none (the translation report: all of them at once). */
  collectRefusals?: boolean;
}

/** Fields the proxy itself provides when it translates between endpoints, whatever the backend. */
const EMULATED = {
  // It renders the prompt: tools and earlier reasoning are its own to render.
  chatOverCompletions: new Set<NeutralField>(['tools', 'tools:custom', 'toolChoice', 'parallelToolCalls', 'reasoning.history']),
  // `images` become image parts of the user message.
  completionsOverChat: new Set<NeutralField>(['images']),
  native: new Set<NeutralField>(),
} as const;

/** Checked on their own below: an effort against the accepted efforts, a budget through the effort ladder. */
const CHECKED_APART: ReadonlySet<NeutralField> = new Set(['reasoning.effort', 'reasoning.budgetTokens']);

/** The fields a plan looks at on one endpoint of a table, in the neutral order: what it refuses, and what it takes with a closed set of values. */
interface Checks {
  unsupported: readonly { field: NeutralField; spec: NeutralFieldSpec; handling: Extract<FieldHandling, { kind: 'unsupported' }> }[];
  valued: readonly { field: NeutralField; spec: NeutralFieldSpec; handling: { wire: string; values: FieldValues } }[];
}

/** Found once per table and endpoint: a plan then reads only these fields of its request, not all of them twice. */
const checksByTable = new WeakMap<FieldSupport, PerEndpoint<Checks>>();

function checksOf(table: FieldSupport, upstream: Endpoint): Checks {
  let both = checksByTable.get(table);
  if (!both) {
    const on = (endpoint: Endpoint): Checks => {
      const checks = { unsupported: [] as Checks['unsupported'][number][], valued: [] as Checks['valued'][number][] };
      for (const field of NEUTRAL_FIELD_NAMES) {
        const handling = handlingOf(table, field, endpoint);
        const spec: NeutralFieldSpec = NEUTRAL_FIELDS[field];
        if (handling.kind === 'unsupported' && !CHECKED_APART.has(field)) checks.unsupported.push({ field, spec, handling });
        if (handling.kind === 'copy' && handling.values)
          checks.valued.push({ field, spec, handling: { wire: handling.wire, values: handling.values } });
      }
      return checks;
    };
    both = { chat: on('chat'), text: on('text') };
    checksByTable.set(table, both);
  }
  return both[upstream];
}

/** Throws the caller's 400 when the backend cannot take the request (unless it drops what it cannot take). */
export function planRequest(parsed: NeutralRequest, match: RouteMatch, options: PlanOptions = {}): Plan {
  const { backend, upstreamModel } = match;
  const { adapter, settings, name } = backend;
  const capabilities = adapter.capabilities;
  const format = formatOf(match);
  const speaksCaller = capabilities.speaks.includes(parsed.endpoint === 'chat' ? 'chat' : 'completions');
  const mode: TranslationMode = speaksCaller ? 'native' : parsed.endpoint === 'chat' ? 'chatOverCompletions' : 'completionsOverChat';
  const upstream: Endpoint = speaksCaller ? parsed.endpoint : parsed.endpoint === 'chat' ? 'text' : 'chat';
  const request = planCopy(parsed);
  const notes = new PlanNotes(request.warnings, backend, options.collectRefusals);

  const checks = checksOf(capabilities.fields, upstream);
  for (const { field, spec, handling } of checks.unsupported) {
    if (!asksFor(request, field) || EMULATED[mode].has(field)) continue;
    const param = paramOf(request, field);
    if ('soft' in spec && spec.soft) {
      notes.notSent(param, `backend "${name}" has no such field`);
      spec.drop(request);
    } else if (request.offeredPaths?.includes(spec.path)) {
      notes.notSent(param, `backend "${name}" has no ${param} (offered, not forced: the model answers without it)`);
      spec.drop(request);
    } else {
      // A table reason that names its own fix (llama-server's `jinja: true`) is the caller's fix too.
      const why = OWN_FIX.test(handling.why)
        ? `${param} is not supported by this backend: ${handling.why}`
        : `${param} is not supported by this backend`;
      notes.refuse(param, why, () => spec.drop(request), handling.why);
    }
  }
  checkValues(request, checks.valued, name, notes);
  const custom = planCustomTools(request, backend, mode, format, notes);
  const { grammarBytes, grammarMs } = options.limits ?? DEFAULT_LIMITS;
  const toolChoiceGrammar =
    mode === 'chatOverCompletions' &&
    enforceToolChoice(request, backend, format, notes, {
      budget: { bytes: grammarBytes, ms: grammarMs },
      ...(custom ? { inputGrammars: custom.grammars } : {}),
    });
  for (const field of Object.keys(request.passthrough)) {
    if (!capabilities.relayed[upstream].has(field)) {
      const param = relayedParamOf(request, field);
      if (request.offeredPassthrough?.includes(field)) {
        delete request.passthrough[field];
        notes.notSent(param, `backend "${name}" has no ${param} (offered, not forced: the model answers without it)`);
        continue;
      }
      notes.refuse(
        param,
        `${param} is not supported by this backend`,
        () => delete request.passthrough[field],
        `${param} has no equivalent on this backend (relayed only to backends that take it as it is)`,
      );
    }
  }
  const logprobs = request.logprobs;
  if (logprobs && logprobs.top > capabilities.maxTopLogprobs) {
    const param = request.origins['logprobs.top'] ?? (logprobs.shape === 'chat' ? 'top_logprobs' : 'logprobs');
    notes.forbid(
      invalidRequest(
        param,
        `${param} ${logprobs.top} is not supported by this backend, which returns at most ${capabilities.maxTopLogprobs} alternatives per token (backend "${name}", kind ${settings.kind}).`,
        'unsupported_parameter',
      ),
      () => (logprobs.top = capabilities.maxTopLogprobs),
    );
  }
  planReasoning(request, match, upstream, notes);
  if (mode === 'chatOverCompletions') noteGuessedTemplate(request, backend, format, notes);

  request.model = upstreamModel;
  const composed = composeEngine(adapter, format, request, mode);
  let engine = composed.engine;
  if (custom) engine = unwrapCustomCalls(engine, custom.names);
  // Made when first read (an upstream's refusal, a report): most requests never need it.
  let fields: FieldPlan | undefined;
  const fieldPlan = () =>
    (fields ??= fieldPlanOf(parsed, notes.notes, {
      capabilities,
      upstream,
      emulated: EMULATED[mode],
      dropping: settings.dropUnsupported === true,
    }));
  // An upstream's refusal names the caller's field, or none (caller-errors.ts).
  const rename = callerErrors(fieldPlan);
  engine = inCallerTerms(engine, (error) => rename(error, request));
  return {
    engine,
    request,
    notes: notes.notes,
    warnings: notes.warnings,
    mode,
    upstream,
    get fields() {
      return fieldPlan();
    },
    fanOut: composed.fanOut,
    ...(composed.addedStops ? { rendering: { addedStops: composed.addedStops, toolChoiceGrammar } } : {}),
    ...(notes.refusal ? { refusal: notes.refusal } : {}),
  };
}

/**
 * The request's parts the plan may change, copied (a shallow copy each: the
 * plan replaces what it changes below them, such as `tools` and `messages`);
 * what it only reads is shared. A test plans a frozen request on every kind.
 */
function planCopy(parsed: NeutralRequest): NeutralRequest {
  return {
    ...parsed,
    sampling: { ...parsed.sampling },
    limits: { ...parsed.limits },
    origins: { ...parsed.origins },
    passthrough: { ...parsed.passthrough },
    warnings: [...parsed.warnings],
    ...(parsed.reasoning ? { reasoning: { ...parsed.reasoning } } : {}),
    ...(parsed.stream ? { stream: { ...parsed.stream } } : {}),
    ...(parsed.tools ? { tools: parsed.tools.map((tool) => (tool.custom ? { ...tool, custom: { ...tool.custom } } : tool)) } : {}),
  };
}

/**
 * A field whose values the backend knows (`service_tier`): an accepted value
 * goes as it is, a value the backend names differently goes under its name
 * with a warning, any other is refused naming the caller's field.
 */
function checkValues(request: NeutralRequest, valued: Checks['valued'], name: string, notes: PlanNotes): void {
  for (const { field, spec, handling } of valued) {
    if (!asksFor(request, field)) continue;
    const value = String(spec.value(request));
    const { accepted, mapped } = handling.values;
    if (accepted.includes(value)) continue;
    const param = paramOf(request, field);
    const standIn = mapped?.[value];
    if (standIn !== undefined && spec.set) {
      spec.set(request, standIn);
      notes.approximated(
        param,
        handling.wire,
        `"${value}" is "${standIn}" at this backend`,
        `${param} "${value}" was sent as "${standIn}", its name at backend "${name}"`,
      );
      continue;
    }
    notes.refuse(param, `${param} "${value}" is not supported by this backend (accepted: ${accepted.join(', ')})`, () =>
      spec.drop(request),
    );
  }
}

/**
 * Custom tools where the backend has none of its own (every kind but OpenAI's
 * chat, and every prompt the proxy renders): each becomes a function with one
 * string parameter, unwrapped on the way back (emulate/custom-tools.ts). A
 * custom tool's grammar can be enforced only where the proxy renders the
 * prompt for a backend that takes grammars and the tool choice forces the
 * call (the tool-call grammar then holds the input to it), and only where it
 * converts exactly to GBNF (a regular expression, emulate/regex-gbnf.ts; never
 * Lark, whose lexer has no exact GBNF form): otherwise a 400 naming the caller's `tools`.
 */
function planCustomTools(
  request: NeutralRequest,
  { adapter }: Backend,
  mode: keyof typeof EMULATED,
  format: ModelFormat,
  notes: PlanNotes,
): { names: ReadonlySet<string>; grammars: ReadonlyMap<string, string> } | undefined {
  const hasCustom =
    request.tools?.some((tool) => tool.custom) || request.messages?.some((message) => message.toolCalls?.some((call) => call.custom));
  if (!hasCustom) return undefined;
  if (
    mode === 'native' &&
    request.endpoint === 'chat' &&
    handlingOf(adapter.capabilities.fields, 'tools:custom', 'chat').kind !== 'emulate'
  )
    return undefined;
  const param = request.origins.tools ?? 'tools';
  const grammars = new Map<string, string>();
  const rendered = mode === 'chatOverCompletions';
  const choice = request.toolChoice;
  for (const tool of request.tools ?? []) {
    const toolFormat = tool.custom?.format;
    if (toolFormat?.type !== 'grammar') continue;
    const drop = () => {
      if (tool.custom) tool.custom.format = { type: 'text' };
    };
    const forced = choice === 'required' || (typeof choice === 'object' && choice.name === tool.name);
    const enforceable =
      rendered &&
      forced &&
      (format.toolCallFormat ?? 'hermes') === 'hermes' &&
      !request.responseFormat &&
      supports(adapter.capabilities, 'responseFormat:grammar');
    if (!enforceable) {
      const where = rendered
        ? "the proxy renders this backend's prompt and can hold a tool's input to a grammar only when tool_choice forces the call, on a backend that takes grammars"
        : 'it takes function tools, whose arguments take no grammar';
      notes.refuse(
        param,
        `the custom tool "${tool.name}" has a ${toolFormat.syntax} grammar, which is not supported by this backend: ${where}`,
        drop,
      );
      continue;
    }
    if (toolFormat.syntax === 'lark') {
      notes.refuse(
        param,
        `the custom tool "${tool.name}" has a lark grammar, which is not supported by this backend: a Lark grammar (its lexer, %ignore, %import) has no exact GBNF form; use a regex`,
        drop,
      );
      continue;
    }
    const converted = regexToGbnf(toolFormat.definition);
    if (!converted.ok) {
      notes.refuse(
        param,
        converted.tooLarge
          ? `the custom tool "${tool.name}" has a regex too large to hold its input to: ${converted.why}`
          : `the custom tool "${tool.name}" has a regex that is not supported by this backend: ${converted.why} has no exact GBNF form`,
        drop,
      );
      continue;
    }
    grammars.set(tool.name, converted.expression);
  }
  const names = customToolsAsFunctions(request);
  return names ? { names, grammars } : undefined;
}

/**
 * `tool_choice: required` or a named function, when the proxy renders the
 * prompt: a grammar that only admits Hermes tool calls forces the model to
 * call (one call for a named function or `parallel_tool_calls: false`).
 * Without grammar support, or with another output format asked for, a prompt
 * cannot force it: a 400.
 */
function enforceToolChoice(
  request: NeutralRequest,
  { adapter, name }: Backend,
  format: ModelFormat,
  notes: PlanNotes,
  { budget, inputGrammars = new Map() }: { budget: GrammarBudget; inputGrammars?: ReadonlyMap<string, string> },
): boolean {
  const choice = request.toolChoice;
  if (!request.tools?.length || (choice !== 'required' && typeof choice !== 'object')) return false;
  const param = request.origins.toolChoice ?? 'tool_choice';
  const hermes = (format.toolCallFormat ?? 'hermes') === 'hermes';
  if (!hermes || request.responseFormat || !supports(adapter.capabilities, 'responseFormat:grammar')) {
    const why = request.responseFormat
      ? 'together with response_format'
      : `on backend "${name}", which renders tool calls through a prompt${hermes ? ' and takes no grammar' : ' in a format the proxy cannot constrain'}`;
    notes.forbid(
      invalidRequest(
        param,
        `tool_choice ${JSON.stringify(choice)} is not supported by this backend: it cannot be enforced ${why}; use "auto".`,
        'unsupported_parameter',
      ),
      () => delete request.toolChoice,
    );
    return false;
  }
  const named = typeof choice === 'object' ? request.tools.filter((tool) => tool.name === choice.name) : [];
  const chosen: GrammarTool[] = typeof choice !== 'object' ? request.tools : named.length > 0 ? named : [{ name: choice.name }];
  const tools = chosen.map((tool) =>
    inputGrammars.has(tool.name) ? { name: tool.name, inputGrammar: inputGrammars.get(tool.name) as string } : tool,
  );
  const single = typeof choice === 'object' || request.parallelToolCalls === false;
  request.responseFormat = {
    type: 'grammar',
    grammar: cachedToolCallGrammar(tools, { single, budget, param: request.origins.tools ?? 'tools' }),
  };
  return true;
}

/** The routed model's text format: the route's settings over the backend's. */
function formatOf({ backend, route }: RouteMatch): ModelFormat {
  const { chatTemplate, thinkTags, toolCallFormat } = { ...backend.settings, ...route };
  return { ...(chatTemplate ? { chatTemplate } : {}), ...(thinkTags ? { thinkTags } : {}), ...(toolCallFormat ? { toolCallFormat } : {}) };
}

/** The adapter wrapped in the emulations the request needs, and the facts of them the translation report names. */
function composeEngine(
  adapter: Adapter,
  format: ModelFormat,
  request: NeutralRequest,
  mode: keyof typeof EMULATED,
): { engine: Engine; fanOut: FanOut; addedStops?: readonly string[] } {
  const { capabilities } = adapter;
  let engine: Engine = adapter;
  let addedStops: readonly string[] | undefined;
  const nativeChoices = choicesAreNative(capabilities);
  const choices = request.choices > 1 && !nativeChoices;
  if (choices) engine = fanOutChoices(engine);
  if (mode === 'completionsOverChat') engine = textOverChat(engine, format.thinkTags);
  if (mode === 'chatOverCompletions') {
    // The configured template wins over the model's own (e.g. GGUF metadata).
    const own = format.chatTemplate
      ? { template: format.chatTemplate }
      : adapter.chatTemplate
        ? {
            template: adapter.chatTemplate.source,
            ...(adapter.chatTemplate.bosToken ? { bosToken: adapter.chatTemplate.bosToken } : {}),
            ...(adapter.chatTemplate.eosToken ? { eosToken: adapter.chatTemplate.eosToken } : {}),
          }
        : {};
    const options: ChatOverTextOptions = {
      ...own,
      ...(format.thinkTags ? { thinkTags: format.thinkTags } : {}),
      ...(format.toolCallFormat ? { toolCallFormat: format.toolCallFormat } : {}),
    };
    engine = chatOverText(engine, options);
    addedStops = endOfTurnStops(request, options);
  }
  const batchNeedsSplit =
    mode === 'completionsOverChat' || handlingOf(capabilities.fields, 'prompt:batch', 'text').kind === 'emulate' || !nativeChoices;
  const prompts = isPromptBatch(request.prompt) && batchNeedsSplit;
  if (prompts) engine = fanOutPrompts(engine);
  return { engine, fanOut: { choices, prompts }, ...(addedStops ? { addedStops } : {}) };
}
