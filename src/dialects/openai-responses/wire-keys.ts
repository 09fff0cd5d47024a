/**
 * Every key of a Responses item, content part or tool is read, known to be
 * bookkeeping, or refused: the document lets objects carry more keys (as
 * OpenAI's spec does), and a key nothing reads would be dropped silently.
 */
import { invalidRequest, unsupportedParameter } from '../../errors/proxy-error.js';
import { isSet } from '../../model/is-set.js';

/** Keys of OpenAI features no backend behind the proxy has, with the reason the 400 gives. */
const NOT_OFFERED: Readonly<Record<string, string>> = {
  caller: 'calls made by a hosted tool (programmatic tool calling) run at OpenAI',
  phase: "message phases (commentary, final answer) mark the turns of OpenAI's own models; the backends here read the text alone",
  allowed_callers: 'programmatic tool calling runs at OpenAI',
  output_schema: "a function's output schema is read by OpenAI's own models only",
  // Only on input_file (an image's detail is read): how OpenAI renders a file's pages.
  detail: "a file's rendering detail is OpenAI's",
};

/**
 * Throws for a set key of `wire` outside `known`: a 400 `unsupported_parameter` with the reason
 * for an OpenAI feature the proxy does not offer, else one naming an unrecognized field.
 * @example checkKeys({type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', caller: {type: 'x'}}, 'input[1]', ['type', 'call_id', 'name', 'arguments'])
 * // 400 input[1].caller is not supported by this proxy: calls made by a hosted tool ...
 */
export function checkKeys(wire: Readonly<Record<string, unknown>>, path: string, known: readonly string[]): void {
  for (const key of Object.keys(wire)) {
    if (!isSet(wire[key]) || known.includes(key)) continue;
    const param = `${path}.${key}`;
    const why = NOT_OFFERED[key];
    if (why) throw unsupportedParameter(param, `${param} is not supported by this proxy: ${why}.`);
    throw invalidRequest(param, `Unrecognized field: ${param}.`);
  }
}
