/** Neutral tools and tool choice -> the OpenAI-compatible wire shapes (OpenAI and Fireworks alike). */
import { convert } from '../../src/backend/field-support.js';
import type { ToolChoice, ToolDefinition } from '../../src/model/request.js';

/** @example toWireTools([{name: 'f'}]) // [{type: 'function', function: {name: 'f'}}] */
export function toWireTools(tools: readonly ToolDefinition[]): Record<string, unknown>[] {
  return tools.map((tool) => {
    const fn: Record<string, unknown> = { name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    if (tool.parameters !== undefined) fn.parameters = tool.parameters;
    if (tool.strict !== undefined) fn.strict = tool.strict;
    return { type: 'function', function: fn };
  });
}

/** @example toWireToolChoice({name: 'f'}) // {type: 'function', function: {name: 'f'}} */
export function toWireToolChoice(choice: ToolChoice): string | Record<string, unknown> {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** The field-table rows of every OpenAI-wire backend that takes tools. */
export const toolsField = convert('tools', (body, request) => { body.tools = toWireTools(request.tools ?? []); });
export const toolChoiceField = convert('tool_choice', (body, request) => {
  if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
});
