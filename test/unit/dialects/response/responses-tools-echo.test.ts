/**
 * The Responses API repeats the caller's tools in its `Response`: the spec's `FunctionTool` requires
 * `strict` and `parameters` (each true/false/object or null), so a tool sent without them is echoed
 * with null, in the plain answer and in the stream's first and last events. A custom tool is echoed as sent.
 */
import { describe, expect, it } from '@jest/globals';
import { parseResponsesRequest } from '../../../../src/dialects/openai-responses/parse-request.js';
import { serializeResponsesResult } from '../../../../src/dialects/openai-responses/serialize-result.js';
import { ResponsesStreamSerializer } from '../../../../src/dialects/openai-responses/serialize-stream.js';
import type { NeutralResult } from '../../../../src/model/result.js';

const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tools = [
  { type: 'function', name: 'get_weather', parameters },
  { type: 'function', name: 'now' },
  { type: 'function', name: 'strict_one', parameters: { ...parameters, additionalProperties: false }, strict: true },
  { type: 'function', name: 'loose_one', parameters, strict: false },
  { type: 'custom', name: 'shell' },
];
const result: NeutralResult = { id: 'x', model: 'm', created: 1, choices: [{ index: 0, text: 'Hi', finishReason: 'stop' }] };

const expected = [
  { type: 'function', name: 'get_weather', parameters, strict: null },
  { type: 'function', name: 'now', parameters: null, strict: null },
  tools[2],
  tools[3],
  { type: 'custom', name: 'shell' },
];

/** What a strict validator of the Response checks of a FunctionTool: both keys present, of the spec's types. */
function isSpecFunctionTool(tool: Record<string, unknown>): boolean {
  return (
    'strict' in tool &&
    (tool.strict === null || typeof tool.strict === 'boolean') &&
    'parameters' in tool &&
    (tool.parameters === null || typeof tool.parameters === 'object')
  );
}

describe('Responses: the tools echoed in the Response', () => {
  const request = () => parseResponsesRequest({ model: 'm', input: 'Hi', tools });

  it('a function tool without strict or parameters gets null for each; the others are echoed as sent', () => {
    const body = serializeResponsesResult(result, request());
    expect(body.tools).toStrictEqual(expected);
    const functions = (body.tools as Record<string, unknown>[]).filter((tool) => tool.type === 'function');
    expect(functions.every(isSpecFunctionTool)).toBe(true);
  });

  it('the same in the stream: response.created and response.completed', () => {
    const serializer = new ResponsesStreamSerializer(request());
    const out: Record<string, unknown>[] = [];
    serializer.push({ type: 'response-start', id: 'x', model: 'm', created: 1 }, out);
    serializer.push({ type: 'text-delta', choice: 0, delta: 'Hi' }, out);
    serializer.push({ type: 'choice-end', choice: 0, finishReason: 'stop' }, out);
    serializer.finish(out);
    const objects = out
      .filter((event) => event.type === 'response.created' || event.type === 'response.completed')
      .map((event) => event.response as Record<string, unknown>);
    expect(objects).toHaveLength(2);
    for (const response of objects) expect(response.tools).toStrictEqual(expected);
  });

  it('the request is not changed: the backend still gets no strict the caller did not send', () => {
    const parsed = request();
    serializeResponsesResult(result, parsed);
    expect(parsed.echoedParams?.tools).toStrictEqual(tools);
    expect(parsed.tools?.find((tool) => tool.name === 'now')?.strict).toBeUndefined();
  });
});
