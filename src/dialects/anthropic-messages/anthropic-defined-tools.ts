/**
 * Anthropic-defined tools (a `type` other than `custom`: `web_search_20250305`,
 * `bash_20250124`...), which the proxy does not relay: server tools run at
 * Anthropic, and the others are run by the client with a schema only
 * Anthropic's models know. Offered is not forced (docs/fields.md): offered,
 * each is dropped with a warning naming it; a tool choice that forces one is
 * refused by name.
 */
import { isRecord } from '../../model/is-record.js';
import { isSet } from '../../model/is-set.js';

const SERVER = 'a server tool, which runs at Anthropic; the proxy does not relay Anthropic-defined tools, so no backend behind it runs it';
const CLIENT =
  "an Anthropic-defined tool the client runs, with a schema only Anthropic's models know: declare it as a custom tool with an input_schema to offer it";

/** The kinds by the prefix of their versioned type. */
const KINDS: readonly (readonly [string, string])[] = [
  ['web_search_', SERVER],
  ['web_fetch_', SERVER],
  ['code_execution_', SERVER],
  ['tool_search_tool_', SERVER],
  ['mcp_toolset', SERVER],
  ['bash_', CLIENT],
  ['text_editor_', CLIENT],
  ['computer_', CLIENT],
  ['memory_', CLIENT],
];

/** True for a tool with a type of Anthropic's (not `custom`). */
export function isAnthropicDefined(tool: unknown): tool is Record<string, unknown> & { type: string } {
  return isRecord(tool) && isSet(tool.type) && tool.type !== 'custom';
}

/** Why no backend here takes an Anthropic-defined tool of this type. */
export function anthropicDefinedReason(type: string): string {
  return KINDS.find(([prefix]) => type.startsWith(prefix))?.[1] ?? 'an Anthropic-defined tool, which the proxy does not relay';
}

/**
 * The warning for an offered Anthropic-defined tool.
 * @example droppedAnthropicTool('tools[0]', 'web_search_20250305') // "tools[0] dropped: 'web_search_20250305', a server tool, ..."
 */
export function droppedAnthropicTool(path: string, type: string): string {
  return `${path} dropped: '${type}', ${anthropicDefinedReason(type)} (offered, not forced: the model answers without it)`;
}
