/**
 * Chat `tools` / `tool_choice` and the legacy `functions` / `function_call`
 * -> neutral tool definitions and tool choice: function tools, and OpenAI's
 * custom tools (free-text input, optionally constrained by a Lark or regex
 * grammar), which a backend takes natively or as a function with one string
 * parameter (pipeline/plan/emulate/custom-tools.ts), or refuses by name.
 */
import { isRecord } from '../../model/is-record.js';
import { invalidRequest } from '../../errors/proxy-error.js';
import type { CustomToolFormat, ToolChoice, ToolDefinition } from '../../model/request.js';
import { isSet } from '../../model/is-set.js';

type Wire = Record<string, unknown>;

function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalidRequest(field, `${field} must be an array.`);
  return value;
}

/** A FunctionObject (`{name, description?, parameters?, strict?}`) -> ToolDefinition. */
export function parseFunction(value: unknown, path: string): ToolDefinition {
  if (!isRecord(value) || typeof value.name !== 'string') throw invalidRequest(`${path}.name`, `${path}.name is required.`);
  const tool: ToolDefinition = { name: value.name };
  if (typeof value.description === 'string') tool.description = value.description;
  if (isRecord(value.parameters)) tool.parameters = value.parameters;
  if (typeof value.strict === 'boolean') tool.strict = value.strict;
  return tool;
}

/**
 * `tools` -> function definitions. With `tool_choice: {type: 'allowed_tools'}`
 * only the allowed ones are kept: OpenAI defines it as restricting the model to that subset.
 * @example parseTools([{type: 'function', function: {name: 'f'}}], undefined) // [{name: 'f'}]
 */
export function parseTools(value: unknown, toolChoice: unknown, field = 'tools'): ToolDefinition[] {
  const tools = list(value, field).map((tool, i) => {
    const path = `${field}[${i}]`;
    if (isRecord(tool) && tool.type === 'custom') return parseCustomTool(tool.custom, `${path}.custom`);
    if (!isRecord(tool) || tool.type !== 'function') {
      const type = isRecord(tool) ? String(tool.type) : typeof tool;
      throw invalidRequest(`${path}.type`, `Tools of type '${type}' are not supported; only function and custom tools are.`);
    }
    return parseFunction(tool.function, `${path}.function`);
  });
  const allowed = allowedToolNames(toolChoice);
  return allowed ? tools.filter((tool) => allowed.includes(tool.name)) : tools;
}

/**
 * A custom tool: `{name, description?, format?}`, the format `{type: 'text'}` or
 * `{type: 'grammar', grammar: {syntax: 'lark' | 'regex', definition}}` (text when absent).
 */
export function parseCustomTool(value: unknown, path: string): ToolDefinition {
  if (!isRecord(value) || typeof value.name !== 'string') throw invalidRequest(`${path}.name`, `${path}.name is required.`);
  const tool: ToolDefinition = { name: value.name, custom: { format: parseCustomFormat(value.format, `${path}.format`) } };
  if (typeof value.description === 'string') tool.description = value.description;
  return tool;
}

function parseCustomFormat(value: unknown, path: string): CustomToolFormat {
  if (value === undefined || value === null) return { type: 'text' };
  if (isRecord(value) && value.type === 'text') return { type: 'text' };
  if (isRecord(value) && value.type === 'grammar' && isRecord(value.grammar)) {
    const { syntax, definition } = value.grammar;
    if ((syntax === 'lark' || syntax === 'regex') && typeof definition === 'string') return { type: 'grammar', syntax, definition };
    throw invalidRequest(`${path}.grammar`, `${path}.grammar must be {syntax: 'lark' | 'regex', definition: string}.`);
  }
  throw invalidRequest(`${path}.type`, `${path} must be {type: 'text'} or {type: 'grammar', grammar}.`);
}

/** The tool an `allowed_tools` entry or a named choice names: `{type: 'function', function: {name}}`, `{type: 'custom', custom: {name}}`, or Fireworks' `{name}`. */
function toolName(entry: unknown): unknown {
  if (!isRecord(entry)) return undefined;
  if (isRecord(entry.function)) return entry.function.name;
  if (isRecord(entry.custom)) return entry.custom.name;
  return entry.name;
}

/** The names listed by an `allowed_tools` tool choice, or undefined for any other choice. */
export function allowedToolNames(toolChoice: unknown): string[] | undefined {
  if (!isRecord(toolChoice) || toolChoice.type !== 'allowed_tools') return undefined;
  const spec = isRecord(toolChoice.allowed_tools) ? toolChoice.allowed_tools : {};
  return list(spec.tools ?? [], 'tool_choice.allowed_tools.tools').map((entry, i) => {
    const name = toolName(entry);
    if (typeof name !== 'string')
      throw invalidRequest(`tool_choice.allowed_tools.tools[${i}]`, 'Each allowed tool must name a function or custom tool.');
    return name;
  });
}

/**
 * `tool_choice`: 'none' | 'auto' | 'required' (Fireworks' 'any' is its alias),
 * `{type: 'function', function: {name}}` (or Fireworks' `{type: 'function', name}`),
 * `{type: 'custom', custom: {name}}`, or `{type: 'allowed_tools', allowed_tools: {mode}}`
 * (the tools row narrows the list).
 */
export function parseToolChoice(value: unknown, field = 'tool_choice'): ToolChoice {
  if (value === 'none' || value === 'auto' || value === 'required') return value;
  if (value === 'any') return 'required';
  if (!isRecord(value)) throw invalidRequest(field, `${field} must be 'none', 'auto', 'required' or an object.`);
  if (value.type === 'function') {
    const name = isRecord(value.function) ? value.function.name : value.name;
    // Fireworks' FunctionSelection makes `function` optional (nullable): forcing "a function" without naming one.
    if (typeof name !== 'string')
      throw invalidRequest(
        `${field}.function.name`,
        `${field} of type function without a function name is not supported by this proxy: name the function, or use "required".`,
        'unsupported_parameter',
      );
    return { name };
  }
  if (value.type === 'custom') {
    const name = isRecord(value.custom) ? value.custom.name : undefined;
    if (typeof name !== 'string') throw invalidRequest(`${field}.custom.name`, `${field}.custom.name is required.`);
    return { name };
  }
  if (value.type === 'allowed_tools') {
    const mode = isRecord(value.allowed_tools) ? value.allowed_tools.mode : undefined;
    if (mode !== 'auto' && mode !== 'required')
      throw invalidRequest(`${field}.allowed_tools.mode`, `${field}.allowed_tools.mode must be 'auto' or 'required'.`);
    return mode;
  }
  throw invalidRequest(`${field}.type`, `${field} of type '${String(value.type)}' is not supported; only function and custom tools are.`);
}

/** Legacy `functions` -> tool definitions. */
export function parseFunctions(value: unknown, field = 'functions'): ToolDefinition[] {
  return list(value, field).map((fn, i) => parseFunction(fn, `${field}[${i}]`));
}

/** Legacy `function_call`: 'none' | 'auto' | `{name}`. */
export function parseFunctionCall(value: unknown, field = 'function_call'): ToolChoice {
  if (value === 'none' || value === 'auto') return value;
  if (isRecord(value) && typeof value.name === 'string') return { name: value.name };
  throw invalidRequest(field, `${field} must be 'none', 'auto' or {name}.`);
}

/** The function names a request declares (tools or functions), for checking a named choice. */
export function declaredNames(body: Readonly<Wire>): string[] | undefined {
  const source = isSet(body.tools) ? body.tools : body.functions;
  if (!Array.isArray(source)) return undefined;
  return source.map(toolName).filter((name): name is string => typeof name === 'string');
}
