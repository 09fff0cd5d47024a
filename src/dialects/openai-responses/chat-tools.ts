/**
 * Responses `tools` and `tool_choice` -> their chat shapes, which the chat
 * dialect's parsers read (so both dialects mean the same by them). A function
 * tool `{type: 'function', name, parameters}` nests under `function`; a custom
 * tool's grammar under `grammar`; each function or custom tool of a
 * `namespace` becomes a tool of its own under a flattened name (tool-names.ts);
 * a built-in tool (web search, file search, a shell...) is dropped with a
 * warning when offered and refused by name when a tool choice forces it
 * (hosted-tools.ts).
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isRecord } from '../../model/is-record.js';
import { BUILT_IN_TOOLS, droppedToolWarning, forcedToolRefusal } from './hosted-tools.js';
import type { ToolNames } from './tool-names.js';
import { checkKeys } from './wire-keys.js';

type Wire = Record<string, unknown>;

/**
 * The keys each tool kind reads (the rest is refused by name, wire-keys.ts). `defer_loading` holds
 * anyway: with no hosted tool search here, a deferred tool is simply there from the start.
 */
const TOOL_KEYS: Readonly<Record<string, readonly string[]>> = {
  function: ['type', 'name', 'description', 'parameters', 'strict', 'defer_loading'],
  custom: ['type', 'name', 'description', 'format', 'defer_loading'],
  namespace: ['type', 'name', 'description', 'tools'],
};

/**
 * Responses tools -> chat tools, the offered built-in tools left out (each a warning in `warnings`).
 * @example chatTools([{type: 'function', name: 'f'}, {type: 'web_search'}], names, warnings) // [{type: 'function', function: {name: 'f'}}]
 */
export function chatTools(value: unknown, names: ToolNames, warnings: string[]): Wire[] {
  if (!Array.isArray(value)) throw invalidRequest('tools', 'tools must be an array.');
  const tools: Wire[] = [];
  value.forEach((tool, i) => {
    const path = `tools[${i}]`;
    if (!isRecord(tool)) throw invalidRequest(path, `${path} must be an object.`);
    const type = String(tool.type);
    if (type === 'namespace') tools.push(...namespaceTools(tool, path, names));
    else if (type === 'function' || type === 'custom') tools.push(chatTool(tool, path));
    else if (BUILT_IN_TOOLS[type]) warnings.push(droppedToolWarning(path, type));
    else throw unsupportedParameter(`${path}.type`, `${path} ('${type}') is not a tool type this proxy knows.`);
  });
  return tools;
}

/**
 * Whether `tools` offers tools and all of them are built-in ones, dropped here: a tool choice of auto
 * or none, and parallel_tool_calls, then have nothing to choose from (and a chat backend refuses them
 * without tools), so they are not sent.
 */
export function offersOnlyBuiltIns(tools: unknown): boolean {
  return Array.isArray(tools) && tools.length > 0 && tools.every((tool) => isRecord(tool) && BUILT_IN_TOOLS[String(tool.type)]);
}

/** A function or custom tool, under `name` when given (a namespaced tool's flattened name). */
function chatTool(tool: Wire, path: string, rename?: { name: string; description?: string }): Wire {
  checkKeys(tool, path, TOOL_KEYS[String(tool.type)] ?? []);
  if (typeof tool.name !== 'string' || tool.name === '') throw invalidRequest(`${path}.name`, `${path}.name is required.`);
  const { type, defer_loading: _loaded, ...definition } = tool;
  if (rename) Object.assign(definition, rename);
  if (type === 'function') return { type, function: definition };
  return { type, custom: { ...definition, format: customFormat(definition.format) } };
}

/** Each function or custom tool of a namespace, as a tool of its own; the namespace's description opens each one's. */
function namespaceTools(tool: Wire, path: string, names: ToolNames): Wire[] {
  checkKeys(tool, path, TOOL_KEYS.namespace);
  if (typeof tool.name !== 'string' || tool.name === '') throw invalidRequest(`${path}.name`, `${path}.name is required.`);
  if (!Array.isArray(tool.tools) || tool.tools.length === 0)
    throw invalidRequest(`${path}.tools`, `${path}.tools must list the namespace's function or custom tools.`);
  const namespace = tool.name;
  const about = typeof tool.description === 'string' && tool.description !== '' ? tool.description : undefined;
  return tool.tools.map((inner: unknown, j) => {
    const at = `${path}.tools[${j}]`;
    if (!isRecord(inner) || (inner.type !== 'function' && inner.type !== 'custom'))
      throw invalidRequest(`${at}.type`, `${at} must be a function or custom tool (a namespace groups the caller's own tools).`);
    if (typeof inner.name !== 'string' || inner.name === '') throw invalidRequest(`${at}.name`, `${at}.name is required.`);
    const own = typeof inner.description === 'string' ? inner.description : undefined;
    const description = [about && `${namespace}: ${about}`, own].filter(Boolean).join('\n\n');
    return chatTool(inner, at, { name: names.flat(namespace, inner.name), ...(description ? { description } : {}) });
  });
}

/** A custom tool's grammar sits beside `type` in Responses (`{type: 'grammar', syntax, definition}`), under `grammar` in chat. */
function customFormat(format: unknown): unknown {
  if (!isRecord(format) || format.type !== 'grammar') return format;
  const { type, ...grammar } = format;
  return { type, grammar };
}

/**
 * Responses tool choices -> chat's: a named tool nests under its type (a namespaced one under its
 * flattened name); allowed_tools nests its mode and list (without the built-in tools, which are not
 * offered here). A choice that forces a built-in tool is refused by name.
 */
export function chatToolChoice(value: unknown, names: ToolNames): unknown {
  if (!isRecord(value)) return value;
  const { type, ...rest } = value;
  if (type === 'function' || type === 'custom') return { type, [type]: { name: backendName(rest, names) } };
  if (type === 'allowed_tools') return allowedTools(rest, names);
  throw unsupportedParameter('tool_choice', forcedToolRefusal('tool_choice', String(type)));
}

/** A tool named with its namespace (`{type: 'function', namespace, name}`) goes by its flattened name. */
function backendName(tool: Wire, names: ToolNames): unknown {
  return typeof tool.namespace === 'string' && typeof tool.name === 'string' ? names.flat(tool.namespace, tool.name) : tool.name;
}

function allowedTools(rest: Wire, names: ToolNames): Wire {
  if (!Array.isArray(rest.tools)) return { type: 'allowed_tools', allowed_tools: { mode: rest.mode, tools: rest.tools } };
  const own = rest.tools.filter((tool) => !(isRecord(tool) && BUILT_IN_TOOLS[String(tool.type)]));
  if (own.length === 0 && rest.tools.length > 0 && rest.mode === 'required') {
    const type = String((rest.tools[0] as Wire).type);
    throw unsupportedParameter('tool_choice', forcedToolRefusal("tool_choice allowed_tools (mode 'required', built-in tools only)", type));
  }
  const tools = own.map((tool) => (isRecord(tool) ? { type: tool.type, [String(tool.type)]: { name: backendName(tool, names) } } : tool));
  return { type: 'allowed_tools', allowed_tools: { mode: rest.mode, tools } };
}
