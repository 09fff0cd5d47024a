/**
 * StreamEvents -> `text_completion` chunks, as Fireworks streams them: one
 * chunk per delta (legacy logprobs with `text_offset` continuing per choice),
 * a chunk with `text: ''` carrying each `finish_reason`, then (by default;
 * `include_usage: false` opts out) a last chunk with `choices: []` and usage.
 */
import { ProxyError } from '../../errors/proxy-error.js';
import { characterCount, withTextOffsets } from '../../model/logprobs.js';
import type { NeutralRequest } from '../../model/request.js';
import type { StreamEvent, StreamEventOf } from '../../model/stream-event.js';
import { missingStart } from '../missing-start.js';
import { promptOfChoice } from '../../model/prompt.js';
import { StreamTotals } from '../stream-totals.js';
import { isEmptyPrompt, noPromptTokensToEcho, wantsEcho } from './echo-text.js';
import { completionLogprobsBody } from './logprobs-body.js';
import type { CompletionChoiceBody } from './serialize-result.js';
import { responseId } from '../response-id.js';

type Head = { id: string; object: 'text_completion'; created: number; model: string };

/** A chunk's choice has the fields of a whole one (token ids and logprobs for this chunk only). */
type CompletionChunkChoice = CompletionChoiceBody;

/**
 * @example for await (const chunk of serializeCompletionStream(events, request)) write(chunk)
 */
export async function* serializeCompletionStream(events: AsyncIterable<StreamEvent>, request: NeutralRequest): AsyncGenerator<Record<string, unknown>> {
  const totals = new StreamTotals(request);
  /** Choice -> characters of text sent so far (legacy `text_offset` continues across chunks). */
  const offsets = new Map<number, number>();
  let head: Head | undefined;
  // Built field by field, not spread: this runs for every event of every stream.
  const chunk = (choice: CompletionChunkChoice, extra?: Record<string, unknown>) => {
    const out: Record<string, unknown> = { id: head?.id, object: 'text_completion', created: head?.created, model: head?.model, choices: [choice] };
    if (extra) Object.assign(out, extra);
    return out;
  };

  for await (const event of events) {
    if (event.type === 'response-start') {
      head = { id: responseId(event.id, 'text'), object: 'text_completion', created: event.created, model: event.model };
      continue;
    }
    // Completions requests carry no tools, so no backend is asked for tool calls.
    if (totals.take(event) || event.type === 'tool-call-delta') continue;
    if (event.type === 'error' || !head) {
      yield { ...(event.type === 'error' ? event.error : missingStart()).toBody() };
      return;
    }
    if (!offsets.has(event.choice)) {
      offsets.set(event.choice, 0);
      if (wantsEcho(request) && !(event.type === 'text-delta' && event.echo)) {
        const echo = ownEcho(request, event.choice);
        if (echo instanceof ProxyError) {
          yield { ...echo.toBody() };
          return;
        }
        yield chunk(echo);
        offsets.set(event.choice, characterCount(echo.text));
      }
    }
    if (event.type === 'choice-end') {
      const finish: CompletionChunkChoice = { index: event.choice, text: '', logprobs: null, finish_reason: event.finishReason };
      if (request.rawOutput && event.rawOutput) finish.raw_output = event.rawOutput;
      yield chunk(finish, totals.endChoice());
    } else {
      const offset = offsets.get(event.choice) ?? 0;
      yield chunk(deltaChoice(event, offset, request));
      if (event.type === 'text-delta') offsets.set(event.choice, offset + characterCount(event.delta));
    }
  }
  const closing = totals.usageChunk(head, { openaiDetails: false });
  if (closing) yield closing;
}

/** A backend that did not echo: we repeat a string prompt ourselves; nothing else can be echoed. */
function ownEcho(request: NeutralRequest, index: number): CompletionChunkChoice | ProxyError {
  const prompt = promptOfChoice(request, index);
  if (isEmptyPrompt(prompt)) return { index, text: '', logprobs: null, finish_reason: null };
  if (!request.echo?.all || typeof prompt !== 'string') return noPromptTokensToEcho(request);
  return { index, text: prompt, logprobs: null, finish_reason: null };
}

function deltaChoice(event: StreamEventOf<'text-delta'> | StreamEventOf<'reasoning-delta'>, offset: number, request: NeutralRequest): CompletionChunkChoice {
  const choice: CompletionChunkChoice = {
    index: event.choice,
    text: event.type === 'text-delta' ? event.delta : '',
    logprobs: request.logprobs && event.logprobs ? completionLogprobsBody(withTextOffsets(event.logprobs, offset), request.logprobs) : null,
    finish_reason: null,
  };
  if (event.type === 'reasoning-delta') choice.reasoning_content = event.delta;
  // `include_internal_content` and `return_token_ids` both mean token ids per chunk here.
  const ids = request.stream?.tokenIds || request.returnTokenIds;
  if (ids && event.type === 'text-delta' && event.promptTokenIds) choice.prompt_token_ids = event.promptTokenIds;
  if (ids && event.tokenIds) choice.token_ids = event.tokenIds;
  return choice;
}
