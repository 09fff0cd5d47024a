/**
 * The plan step: the one place that decides how a neutral request reaches its
 * backend. It checks the request against the backend's capabilities (400 or,
 * with `dropUnsupported`, a warning), and wraps the adapter in the emulations
 * the backend needs: chat over completions, completions over chat, prompt
 * batches and `n` fanned out.
 */
import type { Adapter } from '../backend/adapter.js';
import { choicesAreNative, relays, supports } from '../backend/capabilities.js';
import { handlingOf } from '../backend/field-support.js';
import type { ModelFormat } from '../config/settings.js';
import { invalidRequest, unsupportedParameter } from '../errors/proxy-error.js';
import { NEUTRAL_FIELD_NAMES, NEUTRAL_FIELDS, asksFor, paramOf, type NeutralField } from '../model/neutral-fields.js';
import { isPromptBatch } from '../model/prompt.js';
import { DEFAULT_EFFORT_LADDER, effortForBudget, type EffortLadder } from '../model/reasoning.js';
import type { Effort, NeutralRequest } from '../model/request.js';
import { chatOverText } from './emulate/chat-over-text.js';
import type { Engine } from './emulate/engine.js';
import { fanOutChoices } from './emulate/fan-out-choices.js';
import { fanOutPrompts } from './emulate/fan-out-prompts.js';
import { textOverChat } from './emulate/text-over-chat.js';
import { toolCallGrammar } from './emulate/tool-call-grammar.js';
import type { Backend, RouteMatch } from './route-table.js';

export interface Plan {
  engine: Engine;
  /** The request as the engine receives it (upstream model name set). */
  request: NeutralRequest;
}

/** Fields the proxy itself provides when it translates between endpoints, whatever the backend. */
const EMULATED = {
  // It renders the prompt: tools and earlier reasoning are its own to render.
  chatOverCompletions: new Set<NeutralField>(['tools', 'toolChoice', 'parallelToolCalls', 'reasoning.history']),
  // `images` become image parts of the user message.
  completionsOverChat: new Set<NeutralField>(['images']),
  native: new Set<NeutralField>(),
} as const;

/** Checked on their own below: an effort against the accepted efforts, a budget through the effort ladder. */
const CHECKED_APART: ReadonlySet<NeutralField> = new Set(['reasoning.effort', 'reasoning.budgetTokens']);

export function planRequest(request: NeutralRequest, match: RouteMatch): Plan {
  const { backend, upstreamModel } = match;
  const { adapter, settings, name } = backend;
  const capabilities = adapter.capabilities;
  const reasoning = reasoningLimits(match);
  const format = formatOf(match);
  const speaksCaller = capabilities.speaks.includes(request.endpoint === 'chat' ? 'chat' : 'completions');
  const mode = speaksCaller ? 'native' : request.endpoint === 'chat' ? 'chatOverCompletions' : 'completionsOverChat';

  /** A 400 naming the field, or with `dropUnsupported` the drop and a warning. */
  const refuse = (param: string, why: string, drop: () => void) => {
    if (!settings.dropUnsupported) throw unsupportedParameter(param, `${why} (backend "${name}", kind ${settings.kind}).`);
    request.warnings.push(`${param} dropped: ${why}`);
    drop();
  };

  for (const field of NEUTRAL_FIELD_NAMES) {
    if (CHECKED_APART.has(field) || !asksFor(request, field) || EMULATED[mode].has(field) || supports(capabilities, field)) continue;
    const spec = NEUTRAL_FIELDS[field];
    const param = paramOf(request, field);
    if ('soft' in spec && spec.soft) {
      request.warnings.push(`${param} not sent: backend "${name}" has no such field`);
      spec.drop(request);
    } else {
      refuse(param, `${param} is not supported by this backend`, () => spec.drop(request));
    }
  }
  if (mode === 'chatOverCompletions') enforceToolChoice(request, backend, format);
  for (const field of Object.keys(request.passthrough)) {
    if (!relays(capabilities, field)) refuse(field, `${field} is not supported by this backend`, () => delete request.passthrough[field]);
  }
  if (request.logprobs && request.logprobs.top > capabilities.maxTopLogprobs) {
    const param = request.origins['logprobs.top'] ?? (request.logprobs.shape === 'chat' ? 'top_logprobs' : 'logprobs');
    throw invalidRequest(param, `${param} must be at most ${capabilities.maxTopLogprobs} for backend "${name}" (got ${request.logprobs.top}).`);
  }
  checkReasoningBudget(request, backend, reasoning, refuse);
  const effort = request.reasoning?.effort;
  if (effort !== undefined && !reasoning.efforts.has(effort)) {
    const accepted = reasoning.efforts.size > 0 ? `accepted: ${[...reasoning.efforts].join(', ')}` : 'this backend takes no reasoning effort';
    refuse(request.origins['reasoning.effort'] ?? 'reasoning_effort', `reasoning effort "${effort}" is not accepted (${accepted})`, () => delete request.reasoning?.effort);
  }

  request.model = upstreamModel;
  return { engine: composeEngine(adapter, format, request, mode), request };
}

/**
 * `tool_choice: required` or a named function, when the proxy renders the
 * prompt: a grammar that only admits Hermes tool calls forces the model to
 * call (one call for a named function or `parallel_tool_calls: false`).
 * Without grammar support, or with another output format asked for, a prompt
 * cannot force it: a 400.
 */
function enforceToolChoice(request: NeutralRequest, { adapter, name }: Backend, format: ModelFormat): void {
  const choice = request.toolChoice;
  if (!request.tools?.length || (choice !== 'required' && typeof choice !== 'object')) return;
  const param = request.origins.toolChoice ?? 'tool_choice';
  const hermes = (format.toolCallFormat ?? 'hermes') === 'hermes';
  if (!hermes || request.responseFormat || !supports(adapter.capabilities, 'responseFormat:grammar')) {
    const why = request.responseFormat ? 'together with response_format' : `on backend "${name}", which renders tool calls through a prompt${hermes ? ' and takes no grammar' : ' in a format the proxy cannot constrain'}`;
    throw invalidRequest(param, `tool_choice ${JSON.stringify(choice)} cannot be enforced ${why}; use "auto".`, 'unsupported_parameter');
  }
  const named = typeof choice === 'object' ? request.tools.filter((tool) => tool.name === choice.name) : [];
  const tools = typeof choice !== 'object' ? request.tools : named.length > 0 ? named : [{ name: choice.name }];
  const single = typeof choice === 'object' || request.parallelToolCalls === false;
  request.responseFormat = { type: 'grammar', grammar: toolCallGrammar(tools, { single }) };
}

/**
 * A hard thinking budget goes as-is to a budget-style backend (it must fit
 * under max_tokens there); to an effort-only backend it becomes the effort
 * the configured ladder gives, and the translation is named in a warning.
 */
function checkReasoningBudget(
  request: NeutralRequest,
  { adapter }: Backend,
  { efforts, ladder: configured }: ReasoningLimits,
  refuse: (param: string, why: string, drop: () => void) => void,
): void {
  const reasoning = request.reasoning;
  const budget = reasoning?.budgetTokens;
  if (!reasoning || budget === undefined) return;
  const param = paramOf(request, 'reasoning.budgetTokens');
  const { capabilities } = adapter;
  if (supports(capabilities, 'reasoning.budgetTokens')) {
    const maxTokens = request.limits.maxTokens;
    if (maxTokens !== undefined && budget >= maxTokens) {
      throw invalidRequest(param, `The thinking budget (${budget}) must be below max_tokens (${maxTokens}), or the answer has no room after the thought.`);
    }
    return;
  }
  const ladder = configured.filter((rung) => efforts.has(rung.effort));
  if (ladder.length === 0 || !supports(capabilities, 'reasoning.effort')) {
    refuse(param, `${param}: a thinking budget is not supported and no effort it could map to is accepted`, () => delete reasoning.budgetTokens);
    return;
  }
  const effort = effortForBudget(budget, ladder);
  if (reasoning.effort === undefined) {
    reasoning.effort = effort;
    request.origins['reasoning.effort'] = param;
  }
  delete reasoning.budgetTokens;
  request.warnings.push(`${param}: a budget of ${budget} thinking tokens was sent as reasoning_effort "${reasoning.effort}"`);
}

interface ReasoningLimits {
  /** Efforts the routed model accepts. */
  efforts: ReadonlySet<string>;
  /** Budget thresholds for turning a thinking budget into an effort. */
  ladder: EffortLadder;
}

/** A route may narrow the efforts its model takes and set its own ladder; else the backend's apply. */
function reasoningLimits({ backend, route }: RouteMatch): ReasoningLimits {
  const efforts = route?.efforts ? new Set(route.efforts.filter((effort) => backend.adapter.capabilities.efforts.has(effort))) : backend.adapter.capabilities.efforts;
  return { efforts, ladder: ladderOf(route?.effortLadder ?? backend.settings.effortLadder) };
}

function ladderOf(configured: Record<string, number> | undefined): EffortLadder {
  if (!configured) return DEFAULT_EFFORT_LADDER;
  return Object.entries(configured)
    .map(([effort, upTo]) => ({ effort: effort as Effort, upTo }))
    .sort((a, b) => a.upTo - b.upTo);
}

/** The routed model's text format: the route's settings over the backend's. */
function formatOf({ backend, route }: RouteMatch): ModelFormat {
  const { chatTemplate, thinkTags, toolCallFormat } = { ...backend.settings, ...route };
  return { ...(chatTemplate ? { chatTemplate } : {}), ...(thinkTags ? { thinkTags } : {}), ...(toolCallFormat ? { toolCallFormat } : {}) };
}

function composeEngine(adapter: Adapter, format: ModelFormat, request: NeutralRequest, mode: keyof typeof EMULATED): Engine {
  const { capabilities } = adapter;
  let engine: Engine = adapter;
  const nativeChoices = choicesAreNative(capabilities);
  if (request.choices > 1 && !nativeChoices) engine = fanOutChoices(engine);
  if (mode === 'completionsOverChat') engine = textOverChat(engine, format.thinkTags);
  if (mode === 'chatOverCompletions') {
    // The configured template wins over the model's own (e.g. GGUF metadata).
    const own = format.chatTemplate ? { template: format.chatTemplate } : adapter.chatTemplate ? {
      template: adapter.chatTemplate.source,
      ...(adapter.chatTemplate.bosToken ? { bosToken: adapter.chatTemplate.bosToken } : {}),
      ...(adapter.chatTemplate.eosToken ? { eosToken: adapter.chatTemplate.eosToken } : {}),
    } : {};
    engine = chatOverText(engine, {
      ...own,
      ...(format.thinkTags ? { thinkTags: format.thinkTags } : {}),
      ...(format.toolCallFormat ? { toolCallFormat: format.toolCallFormat } : {}),
    });
  }
  const batchNeedsSplit = mode === 'completionsOverChat' || handlingOf(capabilities.fields, 'prompt:batch', 'text').kind === 'emulate' || !nativeChoices;
  if (isPromptBatch(request.prompt) && batchNeedsSplit) engine = fanOutPrompts(engine);
  return engine;
}
