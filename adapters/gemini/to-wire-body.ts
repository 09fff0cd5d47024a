/**
 * NeutralRequest -> the body of Gemini's `generateContent` (and of
 * `streamGenerateContent`: the same body; the URL says it streams): the fixed part
 * (`systemInstruction`, `contents`), then what the field table writes (fields.ts).
 * The model is in the URL, not the body. A completions request never reaches it:
 * the plan renders a prompt as one user message first.
 */
import type { BackendTable, WireBody } from '../../src/backend/field-support.js';
import { writeFields } from '../../src/backend/write-fields.js';
import { internalError } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { toWireContents } from './to-wire-contents.js';

/**
 * @example
 * toWireBody({...emptyRequest('chat', 'gemini-2.5-flash'), messages: [{role: 'user', content: 'Hi'}]}, table)
 * // {contents: [{role: 'user', parts: [{text: 'Hi'}]}]}
 */
export function toWireBody(request: NeutralRequest, table: BackendTable): WireBody {
  if (request.endpoint !== 'chat') throw internalError('The Gemini API takes chat only; the plan should have rendered the prompt.');
  const { systemInstruction, contents } = toWireContents(request.messages ?? [], request.warnings);
  const body: WireBody = {};
  if (systemInstruction) body.systemInstruction = systemInstruction;
  body.contents = contents;
  return writeFields(body, request, table);
}

/** Where a request goes under the base URL (`.../v1beta`): the model names the resource, the method says whether it streams. */
export function pathOf(request: NeutralRequest, stream: boolean): string {
  const model = encodeURIComponent(request.model.replace(/^models\//, ''));
  return stream ? `/models/${model}:streamGenerateContent?alt=sse` : `/models/${model}:generateContent`;
}
