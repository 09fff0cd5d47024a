/**
 * Every top-level field of Anthropic's `POST /v1/messages` with its fate
 * (`@anthropic-ai/sdk`'s MessageCreateParams, and the beta fields real
 * clients send). A field missing here does not compile; an unknown key is a
 * 400 (field-table.ts). Anthropic-only fields with no neutral meaning are
 * relayed for a backend that speaks Messages; the plan refuses them for any other.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { isSet } from '../../model/is-set.js';
import { MIN_THINKING_BUDGET, normalizeEffort } from '../../model/reasoning.js';
import type { NeutralRequest, ToolChoice, ToolDefinition } from '../../model/request.js';
import { affinityKey, requires, type CrossFieldRule } from '../cross-field-rules.js';
import { copyTo, mapWith, relay, setPath, type FieldTable } from '../field-table.js';
import { object, text } from '../wire-values.js';
import { cacheControlOf, cachedAt, parseConversation, parseSystem, refuseUnhonoured } from './parse-content.js';
import { betaHeader } from './beta-header.js';
import { systemEffort } from './system-effort.js';
import { anthropicDefinedReason, droppedAnthropicTool, isAnthropicDefined } from './anthropic-defined-tools.js';

export type MessagesField =
  | 'model'
  | 'max_tokens'
  | 'messages'
  | 'system'
  | 'cache_control'
  | 'metadata'
  | 'stop_sequences'
  | 'stream'
  | 'temperature'
  | 'top_p'
  | 'top_k'
  | 'tools'
  | 'tool_choice'
  | 'thinking'
  | 'output_config'
  | 'output_format'
  | 'service_tier'
  | 'context_management'
  // Anthropic's service, with no neutral meaning: relayed to a backend that speaks Messages
  | 'container'
  | 'inference_geo'
  | 'mcp_servers'
  | 'speed'
  | 'diagnostics';

/** `service_tier` in the neutral names: `standard_only` is the standard tier every backend is. */
const SERVICE_TIERS: Readonly<Record<string, string>> = { auto: 'auto', standard_only: 'default' };

export const messagesFields: FieldTable<MessagesField> = {
  model: mapWith('model (the answer repeats it as sent)', (value, { request, field }) => {
    setPath(request, 'model', value, field);
    (request.echoedParams ??= {}).model = value;
  }),
  max_tokens: copyTo('limits.maxTokens'),
  messages: mapWith(
    "messages (tool_result blocks -> tool messages; thinking -> reasoning history; a system message's output_config.effort -> reasoning.effort)",
    (value, { request, field, body }) => {
      const turns = parseConversation(value, field, request.warnings);
      setPath(request, 'messages', [...(request.messages ?? []), ...turns], field);
      const inForce = systemEffort(value, field);
      if (inForce) setEffort(request, inForce.effort, inForce.param, body);
    },
  ),
  system: mapWith('a system message before the conversation', (value, { request, field }) => {
    request.messages = [parseSystem(value, field), ...(request.messages ?? [])];
  }),
  cache_control: mapWith(
    'vendor.anthropic.cacheControl (a caching hint: kept for Anthropic, not sent elsewhere)',
    (_value, { request, field, body }) => {
      const cacheControl = cacheControlOf(body, '');
      if (cacheControl) setPath(request, 'vendor.anthropic.cacheControl', cacheControl, field);
    },
  ),
  metadata: mapWith('metadata.user_id -> user and the session-affinity key', (value, { request, field }) => {
    const userId = object(value, field).user_id;
    if (!isSet(userId)) return;
    setPath(request, 'user', text(userId, `${field}.user_id`), `${field}.user_id`);
    request.affinityKey ??= request.user;
  }),
  stop_sequences: copyTo('limits.stop'),
  stream: mapWith('stream (usage always included, as Anthropic streams it)', (value, { request, field }) => {
    if (value === true) setPath(request, 'stream', { includeUsage: true, tokenIds: false }, field);
  }),
  temperature: copyTo('sampling.temperature'),
  top_p: copyTo('sampling.topP'),
  top_k: copyTo('sampling.topK'),
  tools: mapWith('tools (custom tools; Anthropic-defined tools offered are dropped with a warning)', (value, { request, field }) => {
    if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
    const tools: ToolDefinition[] = [];
    value.forEach((tool, i) => {
      const at = `${field}[${i}]`;
      if (isAnthropicDefined(tool)) request.warnings.push(droppedAnthropicTool(at, tool.type));
      else tools.push(parseTool(object(tool, at), at));
    });
    setPath(request, 'tools', tools, field);
  }),
  tool_choice: mapWith(
    'toolChoice (any = required); disable_parallel_tool_use -> parallelToolCalls false; forcing an Anthropic-defined tool is a 400 naming it',
    (value, { request, field, body }) => {
      const choice = object(value, field);
      const offered = Array.isArray(body.tools) ? body.tools : [];
      const forced = choice.type === 'tool' ? offered.find((tool) => isRecord(tool) && tool.name === choice.name) : undefined;
      if (isAnthropicDefined(forced))
        throw unsupportedParameter(
          field,
          `${field} forces '${String(choice.name)}', ${anthropicDefinedReason(forced.type)}; a forced tool cannot be left out as an offered one is.`,
        );
      const own = offered.filter((tool) => !isAnthropicDefined(tool));
      if (own.length === 0 && offered.length > 0) {
        if (choice.type === 'any')
          throw unsupportedParameter(
            field,
            `${field} 'any' forces a tool call, and every tool offered is an Anthropic-defined tool no backend here runs.`,
          );
        // auto or none, with none of the caller's tools left: nothing to choose from.
        return;
      }
      setPath(request, 'toolChoice', toolChoiceOf(choice, field), field);
      if (choice.disable_parallel_tool_use === true) setPath(request, 'parallelToolCalls', false, `${field}.disable_parallel_tool_use`);
    },
  ),
  thinking: mapWith(
    'reasoning: enabled -> a budget, adaptive -> the effort of output_config (adaptive alone), disabled -> none',
    (value, context) => applyThinking(object(value, context.field), context.request, context.body),
  ),
  output_config: mapWith('effort -> reasoning.effort; format -> responseFormat json_schema', (value, { request, field, body }) => {
    const config = object(value, field);
    refuseUnhonoured(config, field, ['effort', 'format']);
    // A system message's effort, later in the conversation, is the one in force (the messages row sets it).
    if (isSet(config.effort) && !systemEffort(body.messages, 'messages')) setEffort(request, config.effort, `${field}.effort`, body);
    if (isSet(config.format)) setPath(request, 'responseFormat', jsonSchemaFormat(config.format, `${field}.format`), `${field}.format`);
  }),
  output_format: mapWith('responseFormat json_schema (the older name of output_config.format)', (value, { request, field }) =>
    setPath(request, 'responseFormat', jsonSchemaFormat(value, field), field),
  ),
  service_tier: mapWith('serviceTier (standard_only = default)', (value, { request, field }) =>
    setPath(request, 'serviceTier', SERVICE_TIERS[text(value, field)] ?? value, field),
  ),
  context_management: mapWith(
    'vendor.anthropic.contextManagement (server-side context editing: kept for Anthropic, not sent elsewhere)',
    (value, { request, field }) => setPath(request, 'vendor.anthropic.contextManagement', object(value, field), field),
  ),
  container: relay("Anthropic's code-execution container: relayed to a backend that speaks Messages"),
  inference_geo: relay('where Anthropic runs the model: relayed to a backend that speaks Messages'),
  mcp_servers: relay("MCP servers Anthropic's service connects to: relayed to a backend that speaks Messages"),
  speed: relay(),
  diagnostics: relay("why Anthropic's prompt cache missed: relayed to a backend that speaks Messages"),
};

/**
 * A custom tool (`type` absent or `custom`) -> a function tool. An
 * Anthropic-defined tool (bash, text editor, web search, code execution...)
 * runs at Anthropic or has a schema only Anthropic's models know: the tools
 * row drops it before this (anthropic-defined-tools.ts).
 */
function parseTool(wire: Record<string, unknown>, at: string): ToolDefinition {
  if (isSet(wire.type) && wire.type !== 'custom') {
    throw unsupportedParameter(
      `${at}.type`,
      `${at} is the Anthropic-defined tool '${String(wire.type)}', which is not supported by this proxy: declare it as a custom tool with an input_schema.`,
    );
  }
  // `defer_loading` (the tool found by a search first) and `eager_input_streaming` hold anyway: the
  // tool is always there, and its input streams as it arrives.
  refuseUnhonoured(wire, at, [
    'type',
    'name',
    'description',
    'input_schema',
    'cache_control',
    'strict',
    'defer_loading',
    'eager_input_streaming',
  ]);
  const tool: ToolDefinition = { name: text(wire.name, `${at}.name`), parameters: object(wire.input_schema, `${at}.input_schema`) };
  if (isSet(wire.description)) tool.description = text(wire.description, `${at}.description`);
  if (wire.strict === true) tool.strict = true;
  return cachedAt(tool, cacheControlOf(wire, at));
}

function toolChoiceOf(choice: Record<string, unknown>, field: string): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { name: text(choice.name, `${field}.name`) };
    default:
      throw invalidRequest(`${field}.type`, `${field}.type must be auto, any, tool or none.`);
  }
}

/** `output_config.effort` names the effort; alone, adaptive thinking lets the model choose (effort 'adaptive'). */
function applyThinking(thinking: Record<string, unknown>, request: NeutralRequest, body: Readonly<Record<string, unknown>>): void {
  refuseUnhonoured(thinking, 'thinking', ['type', 'budget_tokens', 'display']);
  if (isSet(thinking.display) && thinking.display !== 'summarized' && thinking.display !== 'omitted') {
    throw unsupportedParameter(
      'thinking.display',
      `thinking.display '${String(thinking.display)}' is not supported by this proxy (summarized, omitted).`,
    );
  }
  const effortSet =
    (isRecord(body.output_config) && isSet(body.output_config.effort)) || systemEffort(body.messages, 'messages') !== undefined;
  switch (thinking.type) {
    case 'enabled': {
      const budget = thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < MIN_THINKING_BUDGET) {
        throw invalidRequest('thinking.budget_tokens', `thinking.budget_tokens must be an integer >= ${MIN_THINKING_BUDGET}.`);
      }
      setPath(request, 'reasoning.budgetTokens', budget, 'thinking.budget_tokens');
      offer(request);
      break;
    }
    case 'adaptive':
      if (!effortSet) setPath(request, 'reasoning.effort', 'adaptive', 'thinking.type');
      offer(request);
      break;
    case 'disabled':
      // An effort beside it is said not sent (setEffort): Claude Code's helper calls send both.
      setPath(request, 'reasoning.effort', 'none', 'thinking.type');
      offer(request);
      break;
    default:
      throw invalidRequest('thinking.type', "thinking.type must be 'enabled', 'adaptive' or 'disabled'.");
  }
  // `display: omitted` answers with empty thinking (the signature alone), as Anthropic does.
  if (thinking.display === 'omitted') (request.echoedParams ??= {}).thinking_display = 'omitted';
}

/**
 * Beside thinking switched off or given a budget, Anthropic's effort still grades the answer's own length,
 * which no other backend has a field for: the neutral effort is how much the model thinks, which the
 * thinking row has said, so the effort is left out, named in a warning (Anthropic's default is high).
 */
function setEffort(request: NeutralRequest, value: unknown, param: string, body: Readonly<Record<string, unknown>>): void {
  const { effort } = normalizeEffort(value, param);
  if (effort === undefined) throw invalidRequest(param, `${param} must be low, medium, high, xhigh or max.`);
  const thinking = isRecord(body.thinking) ? body.thinking.type : undefined;
  if (thinking === 'disabled' || thinking === 'enabled') {
    const said =
      thinking === 'disabled' ? 'thinking.type disabled turns thinking off' : 'thinking.budget_tokens sets how much the model thinks';
    request.warnings.push(`${param} "${effort}" not sent: ${said}, and the proxy carries an effort only as how much the model thinks`);
    return;
  }
  setPath(request, 'reasoning.effort', effort, param);
  offer(request);
}

/**
 * Anthropic's thinking settings (a budget, adaptive, an effort, or off, its default) say what the model may
 * do, not what the answer must hold: a backend with no such setting answers the same request without it,
 * named in a warning (offered is not forced, docs/fields.md).
 */
function offer(request: NeutralRequest): void {
  if (request.reasoning) request.reasoning.offered = true;
}

function jsonSchemaFormat(value: unknown, field: string): NeutralRequest['responseFormat'] {
  const format = object(value, field);
  if (format.type !== 'json_schema') throw invalidRequest(`${field}.type`, `${field}.type must be 'json_schema'.`);
  return { type: 'json_schema', schema: object(format.schema, `${field}.schema`) };
}

/** The named tool must be declared; `any` and `tool` need tools. */
export const messagesCrossFieldRules: readonly CrossFieldRule[] = [
  affinityKey,
  betaHeader,
  requires(
    'tool_choice',
    (body) => !isRecord(body.tool_choice) || (body.tool_choice.type !== 'any' && body.tool_choice.type !== 'tool') || isSet(body.tools),
    "tool_choice 'any' or 'tool' requires tools.",
  ),
  {
    fields: ['tool_choice', 'tools'],
    note: 'tool_choice must name a declared tool',
    apply: ({ body }) => {
      const choice = body.tool_choice;
      if (!isRecord(choice) || choice.type !== 'tool' || !Array.isArray(body.tools)) return;
      if (!body.tools.some((tool) => isRecord(tool) && tool.name === choice.name)) {
        throw invalidRequest('tool_choice.name', `tool_choice names '${String(choice.name)}', which is not among the declared tools.`);
      }
    },
  },
];
