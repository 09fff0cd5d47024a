/**
 * Neutral tools and tool choice -> Gemini's `tools: [{functionDeclarations}]` and
 * `toolConfig.functionCallingConfig`. A function's JSON Schema goes whole as
 * `parametersJsonSchema`, or, with `toolSchemas: parameters`, as Google's Schema
 * subset (tool-schema.ts). Custom tools reach here as functions (the plan's emulation).
 */
import { convert, emulate, type FieldHandling, type WireBody } from '../../src/backend/field-support.js';
import { paramOf } from '../../src/model/neutral-fields.js';
import type { NeutralRequest, ToolChoice, ToolDefinition } from '../../src/model/request.js';
import type { ToolSchemaField } from './settings.js';
import { toGoogleSchema } from './tool-schema.js';

/**
 * @example toWireTools([{name: 'f', parameters: {type: 'object'}}], 'parametersJsonSchema', request)
 * // [{functionDeclarations: [{name: 'f', parametersJsonSchema: {type: 'object'}}]}]
 */
export function toWireTools(tools: readonly ToolDefinition[], schemas: ToolSchemaField, request: NeutralRequest): WireBody[] {
  const param = paramOf(request, 'tools');
  const declarations = tools.map((tool) => {
    const wire: WireBody = { name: tool.name };
    if (tool.description !== undefined) wire.description = tool.description;
    if (tool.parameters !== undefined)
      wire[schemas] = schemas === 'parameters' ? toGoogleSchema(tool.parameters, { param, tool: tool.name }) : tool.parameters;
    return wire;
  });
  return [{ functionDeclarations: declarations }];
}

/**
 * `auto` -> AUTO, `none` -> NONE, `required` -> ANY, a named tool -> ANY limited to it.
 * @example toWireToolConfig({name: 'f'}) // {functionCallingConfig: {mode: 'ANY', allowedFunctionNames: ['f']}}
 */
export function toWireToolConfig(choice: ToolChoice): WireBody {
  if (typeof choice === 'object') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  const mode = choice === 'auto' ? 'AUTO' : choice === 'none' ? 'NONE' : 'ANY';
  return { functionCallingConfig: { mode } };
}

export function toolsField(schemas: ToolSchemaField): FieldHandling {
  return convert(`tools: [{functionDeclarations: [{name, description, ${schemas}}]}]`, (body, request) => {
    body.tools = toWireTools(request.tools ?? [], schemas, request);
  });
}

export const toolChoiceField = convert('toolConfig.functionCallingConfig: AUTO, NONE, ANY, ANY + allowedFunctionNames', (body, request) => {
  if (request.toolChoice !== undefined) body.toolConfig = toWireToolConfig(request.toolChoice);
});

/** Gemini has no switch for parallel calls: with `false`, the kind keeps an answer's first call only (from-wire-result.ts, from-wire-chunks.ts). */
export const parallelToolCallsField = emulate(
  'Gemini has no switch for parallel calls: when false, the proxy returns only the first function call of an answer (its signature is on that one)',
);
