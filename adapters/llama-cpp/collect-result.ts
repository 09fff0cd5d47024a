/** One choice's neutral stream -> a NeutralResult (a non-streamed request runs the same stream). */
import type { TokenLogprob } from '../../src/model/logprobs.js';
import type { NeutralResult, ResultChoice } from '../../src/model/result.js';
import type { StreamEvent } from '../../src/model/stream-event.js';
import { pushAll } from '../../src/model/push-all.js';

export async function collectResult(events: AsyncIterable<StreamEvent>, options: { logprobs?: boolean } = {}): Promise<NeutralResult> {
  const result: NeutralResult = { id: '', model: '', created: 0, choices: [] };
  const choice: ResultChoice = { index: 0, text: '', finishReason: null };
  const logprobs: TokenLogprob[] = [];
  const tokenIds: number[] = [];
  let sawLogprobs = options.logprobs ?? false;
  for await (const event of events) {
    switch (event.type) {
      case 'response-start':
        Object.assign(result, { id: event.id, model: event.model, created: event.created });
        break;
      case 'text-delta':
        if (event.promptTokenIds) choice.promptTokenIds = event.promptTokenIds;
        if (event.echo) {
          choice.echoText = event.delta;
          if (event.logprobs) choice.promptLogprobs = event.logprobs;
          break;
        }
        choice.text += event.delta;
        if (event.tokenIds) pushAll(tokenIds, event.tokenIds);
        if (event.logprobs) {
          sawLogprobs = true;
          pushAll(logprobs, event.logprobs);
        }
        break;
      case 'choice-end':
        choice.finishReason = event.finishReason;
        break;
      case 'usage':
        result.usage = event.usage;
        break;
      case 'perf':
        result.perf = event.perf;
        break;
      case 'error':
        throw event.error;
      default:
        break;
    }
  }
  choice.tokenIds = tokenIds;
  if (sawLogprobs) choice.logprobs = logprobs;
  result.choices = [choice];
  return result;
}
