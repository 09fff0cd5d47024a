/**
 * A stream's events as they pass to the caller, read for the span: the
 * answer's id and model, each choice's finish reason, and (when content is
 * captured) its text. One `then` per batch, only when tracing is on; the
 * caller's stream is otherwise untouched, and ending it early still reaches
 * the engine (`return`).
 */
import type { StreamBatches, StreamEvent } from '../model/stream-event.js';
import type { CapturedChoice } from './content-attributes.js';
import type { AnswerFacts } from './genai-attributes.js';

export interface StreamSeen {
  facts: AnswerFacts;
  /** Per choice, when content is captured. */
  choices?: CapturedChoice[];
}

export function watchStream(batches: StreamBatches, seen: StreamSeen): StreamBatches {
  const note = (event: StreamEvent) => {
    switch (event.type) {
      case 'response-start':
        seen.facts.id ??= event.id;
        seen.facts.model ??= event.model;
        return;
      case 'choice-end':
        seen.facts.finishReasons.push(event.finishReason);
        if (seen.choices) choice(seen.choices, event.choice).finishReason = event.finishReason;
        return;
      case 'text-delta':
        if (seen.choices) choice(seen.choices, event.choice).text += event.delta;
        return;
      case 'reasoning-delta':
        if (seen.choices) {
          const captured = choice(seen.choices, event.choice);
          captured.reasoning = (captured.reasoning ?? '') + event.delta;
        }
        return;
      case 'tool-call-delta':
        if (seen.choices) {
          const calls = (choice(seen.choices, event.choice).toolCalls ??= []);
          const call = (calls[event.index] ??= { arguments: '' });
          if (event.id) call.id = event.id;
          if (event.name) call.name = event.name;
          call.arguments += event.argumentsDelta;
        }
        return;
    }
  };
  return {
    [Symbol.asyncIterator]() {
      const iterator = batches[Symbol.asyncIterator]();
      return {
        next: () =>
          iterator.next().then((result) => {
            if (!result.done) for (const event of result.value) note(event);
            return result;
          }),
        return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
      };
    },
  };
}

function choice(choices: CapturedChoice[], index: number): CapturedChoice {
  return (choices[index] ??= { text: '' });
}
