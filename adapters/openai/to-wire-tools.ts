/** Neutral tools and tool choice -> the OpenAI-compatible wire shapes (OpenAI and Fireworks alike). */
import { convert } from '../../src/backend/field-support.js';
import type { CustomToolFormat, ToolChoice, ToolDefinition } from '../../src/model/request.js';

/**
 * Function tools, and custom tools in OpenAI's own shape (only OpenAI takes them: the plan
 * turns them into functions for the other kinds, pipeline/plan/emulate/custom-tools.ts).
 * @example toWireTools([{name: 'f'}]) // [{type: 'function', function: {name: 'f'}}]
 */
export function toWireTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => {
    if (tool.custom) {
      const custom: Record<string, unknown> = { name: tool.name };
      if (tool.description !== undefined) custom.description = tool.description;
      custom.format = customFormat(tool.custom.format);
      return { type: 'custom', custom };
    }
    const fn: Record<string, unknown> = { name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    if (tool.parameters !== undefined) fn.parameters = tool.parameters;
    if (tool.strict !== undefined) fn.strict = tool.strict;
    return { type: 'function', function: fn };
  });
}

function customFormat(format: CustomToolFormat): Record<string, unknown> {
  return format.type === 'text' ? { type: 'text' } : { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } };
}

/**
 * A named choice is a function's, or a custom tool's when the tool it names is one.
 * @example toWireToolChoice({name: 'f'}) // {type: 'function', function: {name: 'f'}}
 */
export function toWireToolChoice(choice: ToolChoice, tools: readonly ToolDefinition[] = []): string | Record<string, unknown> {
  if (typeof choice === 'string') return choice;
  return tools.some((tool) => tool.custom && tool.name === choice.name)
    ? { type: 'custom', custom: { name: choice.name } }
    : { type: 'function', function: { name: choice.name } };
}

/** The field-table rows of every OpenAI-wire backend that takes tools. */
export const toolsField = convert('tools', (body, request) => {
  body.tools = toWireTools(request.tools ?? []);
});
export const toolChoiceField = convert('tool_choice', (body, request) => {
  if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice, request.tools);
});
