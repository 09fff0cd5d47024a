/**
 * `POST /v1/responses/compact` (Codex CLI's remote compaction): a Responses body whose conversation
 * the backend summarises. The answer is OpenAI's compacted response: the caller's own messages, then
 * exactly one `compaction` item, whose `encrypted_content` the proxy sealed (sealed-items.ts); when
 * it comes back in `input`, the summary stands for the turns it replaced (parse-input.ts).
 */
import type { ContentPart, Message, NeutralRequest } from '../../model/request.js';
import type { NeutralResult } from '../../model/result.js';
import type { Dialect, DialectContext } from '../dialect.js';
import { idBase } from '../response-id.js';
import { parseResponsesRequest } from './parse-request.js';
import { newResponseId, usageBody } from './response-object.js';
import { COMPACTION_PREFIX, sealCompaction } from './sealed-items.js';

/** What the backend is asked, after the conversation. */
const COMPACTION_INSTRUCTION =
  'Summarize the conversation above so that the work can continue from your summary alone, without it: ' +
  'the task and its constraints, what has been done and found (files, commands, results), the decisions made, ' +
  'and what remains to do. Answer with the summary only.';

function parseCompactRequest(
  body: Record<string, unknown>,
  headers?: Readonly<Record<string, string | string[] | undefined>>,
  context?: DialectContext,
): NeutralRequest {
  // Answered whole: a compaction is not streamed.
  const request = parseResponsesRequest({ ...body, stream: false }, headers, context);
  request.messages = [...(request.messages ?? []), { role: 'user', content: COMPACTION_INSTRUCTION }];
  // The tools stay declared (a backend may need them for the calls in the history), but none is called now.
  if (request.tools?.length) request.toolChoice = 'none';
  return request;
}

function serializeCompaction(result: NeutralResult, request: NeutralRequest, context?: DialectContext): Record<string, unknown> {
  const id = newResponseId();
  const summary = result.choices[0]?.text ?? '';
  if (!context?.sealer) throw new Error('responses/compact needs the running proxy: only it seals a compaction item');
  return {
    id,
    object: 'response.compaction',
    created_at: result.created,
    output: [
      ...(request.messages ?? []).slice(0, -1).flatMap(keptMessage),
      { id: `cmp_${idBase(id)}`, type: 'compaction', encrypted_content: sealCompaction(context.sealer, summary) },
    ],
    usage: usageBody(result.usage),
  };
}

/** The caller's own words are kept, as OpenAI keeps them; the rest (and an earlier summary) is in the new summary. */
function keptMessage(message: Message): Record<string, unknown>[] {
  if (message.role !== 'user') return [];
  const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content } as ContentPart] : (message.content ?? []);
  if (parts.length === 1 && parts[0].type === 'text' && parts[0].text.startsWith(COMPACTION_PREFIX)) return [];
  const content = parts.flatMap((part): Record<string, unknown>[] => {
    if (part.type === 'text') return [{ type: 'input_text', text: part.text }];
    if (part.type === 'image') return [{ type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' }];
    return [];
  });
  return content.length ? [{ type: 'message', role: 'user', content }] : [];
}

/** The Responses dialect (`responses`) at `/v1/responses/compact`. */
export function compactVariant(responses: Dialect): Dialect {
  // Not a stored response: nothing of the state applies (previous_response_id needs responses.store, and is refused without it).
  const { state: _none, variants: _own, ...rest } = responses;
  return { ...rest, path: '/v1/responses/compact', parseRequest: parseCompactRequest, serializeResult: serializeCompaction };
}
