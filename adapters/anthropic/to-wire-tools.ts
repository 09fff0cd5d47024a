/** Neutral tools and tool choice -> Anthropic's `tools` and `tool_choice`. */
import { convert, type WireBody } from '../../src/backend/field-support.js';
import type { ToolChoice, ToolDefinition } from '../../src/model/request.js';
import type { CacheControl } from '../../src/model/vendor-data.js';

/** Anthropic requires a schema of type object; a tool without parameters takes none. */
const NO_PARAMETERS = { type: 'object', properties: {} } as const;

/**
 * Function tools (custom tools reach here as functions: the plan turns them into ones).
 * @example toWireTools([{name: 'f', parameters: {type: 'object'}}]) // [{name: 'f', input_schema: {type: 'object'}}]
 */
export function toWireTools(tools: readonly ToolDefinition[]): WireBody[] {
  return tools.map((tool) => {
    const wire: WireBody = { name: tool.name };
    if (tool.description !== undefined) wire.description = tool.description;
    wire.input_schema = tool.parameters ?? { ...NO_PARAMETERS };
    if (tool.strict !== undefined) wire.strict = tool.strict;
    const cacheControl = tool.vendor?.anthropic?.cacheControl;
    if (cacheControl) wire.cache_control = cacheControlOf(cacheControl);
    return wire;
  });
}

/**
 * `auto`, `any` (required), `tool` (a named one) or `none`; `parallel_tool_calls: false`
 * is `disable_parallel_tool_use: true` on any but `none`.
 * @example toWireToolChoice('required', false) // {type: 'any', disable_parallel_tool_use: true}
 */
export function toWireToolChoice(choice: ToolChoice | undefined, parallel: boolean | undefined): WireBody | undefined {
  if (choice === undefined && parallel !== false) return undefined;
  const wire: WireBody =
    choice === undefined || choice === 'auto'
      ? { type: 'auto' }
      : choice === 'required'
        ? { type: 'any' }
        : choice === 'none'
          ? { type: 'none' }
          : { type: 'tool', name: choice.name };
  if (parallel === false && wire.type !== 'none') wire.disable_parallel_tool_use = true;
  return wire;
}

export function cacheControlOf(control: CacheControl): WireBody {
  return control.ttl === undefined ? { type: control.type } : { type: control.type, ttl: control.ttl };
}

export const toolsField = convert('tools: {name, description, input_schema, strict}', (body, request) => {
  body.tools = toWireTools(request.tools ?? []);
});

/** `tool_choice` and `parallel_tool_calls` share it: Anthropic has one field for both. */
export const toolChoiceField = convert('tool_choice (auto, any, tool, none; disable_parallel_tool_use)', (body, request) => {
  const choice = toWireToolChoice(request.toolChoice, request.parallelToolCalls);
  if (choice) body.tool_choice = choice;
});
