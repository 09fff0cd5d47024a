/**
 * The Responses API's built-in tools, none of which a backend behind the proxy
 * runs, and what becomes of them. Offered is not forced (docs/fields.md): a
 * built-in tool in `tools` is an option the model may leave unused, so it is
 * dropped with a warning naming it; a `tool_choice` that forces one is refused
 * by name. The items such tools left in an earlier turn's history are dropped
 * too where they only record the tool's work (the answer that used it follows
 * as text); the calls of tools the client runs carry the conversation, so they
 * stay refused (parse-input.ts).
 */

const HOSTED = 'a hosted tool, which runs at OpenAI: no backend behind the proxy runs it';
const BUILT_IN = "a built-in tool the client runs, whose calls (typed items, not function calls) only OpenAI's models make";

/** Each built-in tool type and why no backend here takes it. */
export const BUILT_IN_TOOLS: Readonly<Record<string, string>> = {
  web_search: HOSTED,
  web_search_2025_08_26: HOSTED,
  web_search_preview: HOSTED,
  web_search_preview_2025_03_11: HOSTED,
  file_search: HOSTED,
  code_interpreter: HOSTED,
  image_generation: HOSTED,
  mcp: `${HOSTED} (OpenAI connects to the MCP server)`,
  tool_search: HOSTED,
  programmatic_tool_calling: HOSTED,
  computer: BUILT_IN,
  computer_use: BUILT_IN,
  computer_use_preview: BUILT_IN,
  local_shell: BUILT_IN,
  shell: BUILT_IN,
  apply_patch: BUILT_IN,
};

/** Input items that only record a hosted tool's work at OpenAI: dropped from the history with a warning. */
export const HOSTED_ITEMS: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_list_tools',
  'mcp_call',
  'mcp_approval_request',
  'mcp_approval_response',
  'tool_search_call',
  'tool_search_output',
  'program',
  'program_output',
]);

/**
 * The warning for an offered built-in tool.
 * @example droppedToolWarning('tools[8]', 'web_search') // "tools[8] dropped: 'web_search', a hosted tool, ... (offered, not forced: ...)"
 */
export function droppedToolWarning(path: string, type: string): string {
  return `${path} dropped: '${type}', ${BUILT_IN_TOOLS[type]} (offered, not forced: the model answers without it)`;
}

/**
 * The refusal of a tool choice that forces a built-in tool.
 * @example forcedToolRefusal("tool_choice", 'web_search_preview') // "tool_choice forces 'web_search_preview', a hosted tool, ...; a forced tool ..."
 */
export function forcedToolRefusal(choice: string, type: string): string {
  const what = BUILT_IN_TOOLS[type] ?? 'a tool this proxy does not know';
  return `${choice} forces '${type}', ${what}; a forced tool cannot be left out as an offered one is: declare your own function tools instead.`;
}
