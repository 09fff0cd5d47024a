/**
 * StreamEvents -> `text_completion` chunks, as Fireworks streams them: one
 * chunk per delta (legacy logprobs with `text_offset` continuing per choice),
 * a chunk with `text: ''` carrying each `finish_reason`, then (by default;
 * `include_usage: false` opts out) a last chunk with `choices: []` and usage.
 */
import { ProxyError } from '../../errors/proxy-error.js';
import { characterCount, withTextOffsets } from '../../model/logprobs.js';
import type { NeutralRequest } from '../../model/request.js';
import type { SerializedEvent, StreamEventOf } from '../../model/stream-event.js';
import type { StreamSerializer } from '../stream-serializer.js';
import { missingStart } from '../../errors/catalogue.js';
import { promptOfChoice } from '../../model/prompt.js';
import { StreamTotals } from '../stream-totals.js';
import { isEmptyPrompt, noPromptTokensToEcho, wantsEcho } from './echo-text.js';
import { completionLogprobsBody } from './logprobs-body.js';
import type { CompletionChoiceBody } from './serialize-result.js';
import { responseId } from '../response-id.js';
import { rawOutputFor } from '../raw-output.js';

type Head = { id: string; object: 'text_completion'; created: number; model: string };

/** A chunk's choice has the fields of a whole one (token ids and logprobs for this chunk only). */
type CompletionChunkChoice = CompletionChoiceBody;

type Chunk = Record<string, unknown>;

/** One synchronous step per event (this runs for every event of every stream). */
export class CompletionStreamSerializer implements StreamSerializer {
  ended = false;
  private readonly totals: StreamTotals;
  /** Choice -> characters of text sent so far (legacy `text_offset` continues across chunks). */
  private readonly offsets = new Map<number, number>();
  private head?: Head;

  constructor(private readonly request: NeutralRequest) {
    this.totals = new StreamTotals(request);
  }

  push(event: SerializedEvent, out: Chunk[]): void {
    // A reasoning signature has no place in this dialect's chunks.
    if (this.ended || event.type === 'reasoning-signature') return;
    const { request, offsets } = this;
    if (event.type === 'response-start') {
      this.head = { id: responseId(event.id, 'text'), object: 'text_completion', created: event.created, model: event.model };
      return;
    }
    // Completions requests carry no tools, so no backend is asked for tool calls.
    if (this.totals.take(event) || event.type === 'tool-call-delta') return;
    if (event.type === 'error' || !this.head) return this.fail(event.type === 'error' ? event.error : missingStart(), out);
    if (!offsets.has(event.choice)) {
      offsets.set(event.choice, 0);
      if (wantsEcho(request) && !(event.type === 'text-delta' && event.echo)) {
        const echo = ownEcho(request, event.choice);
        if (echo instanceof ProxyError) return this.fail(echo, out);
        out.push(this.chunk(echo));
        offsets.set(event.choice, characterCount(echo.text));
      }
    }
    if (event.type === 'choice-end') {
      const finish: CompletionChunkChoice = { index: event.choice, text: '', logprobs: null, finish_reason: event.finishReason };
      const rawOutput = rawOutputFor(request, event);
      if (rawOutput) finish.raw_output = rawOutput;
      out.push(this.chunk(finish, this.totals.endChoice()));
    } else {
      const offset = offsets.get(event.choice) ?? 0;
      out.push(this.chunk(deltaChoice(event, offset, request)));
      if (event.type === 'text-delta') offsets.set(event.choice, offset + characterCount(event.delta));
    }
  }

  finish(out: Chunk[]): void {
    if (this.ended) return;
    const closing = this.totals.usageChunk(this.head, { openaiDetails: false });
    if (closing) out.push(closing);
  }

  private fail(error: ProxyError, out: Chunk[]): void {
    out.push({ ...error.toBody() });
    this.ended = true;
  }

  // Built field by field, not spread.
  private chunk(choice: CompletionChunkChoice, extra?: Record<string, unknown>): Chunk {
    const { head } = this;
    const out: Chunk = { id: head?.id, object: 'text_completion', created: head?.created, model: head?.model, choices: [choice] };
    if (extra) Object.assign(out, extra);
    return out;
  }
}

/** A backend that did not echo: we repeat a string prompt ourselves; nothing else can be echoed. */
function ownEcho(request: NeutralRequest, index: number): CompletionChunkChoice | ProxyError {
  const prompt = promptOfChoice(request, index);
  if (isEmptyPrompt(prompt)) return { index, text: '', logprobs: null, finish_reason: null };
  if (!request.echo?.all || typeof prompt !== 'string') return noPromptTokensToEcho(request);
  return { index, text: prompt, logprobs: null, finish_reason: null };
}

function deltaChoice(
  event: StreamEventOf<'text-delta'> | StreamEventOf<'reasoning-delta'>,
  offset: number,
  request: NeutralRequest,
): CompletionChunkChoice {
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
