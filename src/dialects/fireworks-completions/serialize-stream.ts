/**
 * StreamEvents -> `text_completion` chunks, as Fireworks streams them: one
 * chunk per delta (legacy logprobs with `text_offset` continuing per choice),
 * a chunk with `text: ''` carrying each `finish_reason`, then (by default;
 * `include_usage: false` opts out) a last chunk with `choices: []` and usage.
 */
import { withTextOffsets } from '../../model/logprobs.js';
import type { NeutralRequest } from '../../model/request.js';
import { addUsage, type FinishReason, type PerfMetrics, type Usage } from '../../model/result.js';
import type { StreamEvent, StreamEventOf } from '../../model/stream-event.js';
import { missingStart } from '../missing-start.js';
import { countChoices, promptOfChoice } from '../count-choices.js';
import { perfMetricsBody } from '../perf-metrics-body.js';
import { usageBody } from '../usage-body.js';
import { echoUnavailable, wantsEcho } from './echo-text.js';
import { completionLogprobsBody, type CompletionLogprobsBody } from './logprobs-body.js';

type Head = { id: string; object: 'text_completion'; created: number; model: string };

export type CompletionChunkChoice = {
  index: number;
  text: string;
  logprobs: CompletionLogprobsBody | null;
  finish_reason: FinishReason | null;
  reasoning_content?: string;
  token_ids?: number[];
};

/**
 * @example for await (const chunk of serializeCompletionStream(events, request)) write(chunk)
 */
export async function* serializeCompletionStream(events: AsyncIterable<StreamEvent>, request: NeutralRequest): AsyncGenerator<Record<string, unknown>> {
  const includeUsage = request.stream?.includeUsage === true;
  const expected = countChoices(request);
  /** Choice -> characters of text sent so far (legacy `text_offset` continues across chunks). */
  const offsets = new Map<number, number>();
  let head: Head | undefined;
  let usage: Usage | undefined;
  let perf: PerfMetrics | undefined;
  let ended = 0;
  const chunk = (choice: CompletionChunkChoice, extra: Record<string, unknown> = {}) => ({ ...head, choices: [choice], ...extra });

  for await (const event of events) {
    if (event.type === 'response-start') {
      head = { id: event.id, object: 'text_completion', created: event.created, model: event.model };
      continue;
    }
    if (event.type === 'usage') usage = addUsage(usage, event.usage);
    else if (event.type === 'perf') perf = { ...perf, ...event.perf };
    else if (event.type === 'error') {
      yield { ...event.error.toBody() };
      return;
    } else if (event.type !== 'tool-call-delta') { // completions requests carry no tools
      if (!head) {
        yield { ...missingStart().toBody() };
        return;
      }
      if (!offsets.has(event.choice)) {
        offsets.set(event.choice, 0);
        // A backend that did not echo: repeat a string prompt ourselves; anything else cannot be echoed.
        if (wantsEcho(request) && !(event.type === 'text-delta' && event.echo)) {
          const prompt = promptOfChoice(request, event.choice);
          if (!request.echo?.all || typeof prompt !== 'string') {
            yield { ...echoUnavailable(request).toBody() };
            return;
          }
          yield chunk({ index: event.choice, text: prompt, logprobs: null, finish_reason: null });
          offsets.set(event.choice, prompt.length);
        }
      }
      if (event.type === 'choice-end') {
        ended += 1;
        // Fireworks: perf_metrics ride the final chunk that has a finish_reason.
        const last = ended >= expected && request.perfMetricsInBody ? { perf_metrics: perfMetricsBody(perf, usage) } : {};
        yield chunk({ index: event.choice, text: '', logprobs: null, finish_reason: event.finishReason }, last);
      } else {
        const offset = offsets.get(event.choice) ?? 0;
        yield chunk(deltaChoice(event, offset, request));
        if (event.type === 'text-delta') offsets.set(event.choice, offset + event.delta.length);
      }
    }
  }
  if (includeUsage && usage && head) yield { ...head, choices: [], usage: usageBody(usage, { completionDetails: false }) };
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
  if ((request.stream?.tokenIds || request.returnTokenIds) && event.tokenIds) choice.token_ids = event.tokenIds;
  return choice;
}
