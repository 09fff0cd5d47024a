/**
 * NeutralResult -> Fireworks `text_completion` (`CompletionResponse`). The echo
 * is ours to add: the neutral `text` holds only generated text, and the echoed
 * prompt comes first in the returned `text`, its tokens first in `logprobs`,
 * with `text_offset` counted from the start of the returned text.
 */
import { characterCount, withTextOffsets } from '../../model/logprobs.js';
import type { NeutralRequest } from '../../model/request.js';
import type { FinishReason, NeutralResult, ResultChoice } from '../../model/result.js';
import { perfMetricsBody } from '../perf-metrics-body.js';
import { usageBody, type UsageBody } from '../usage-body.js';
import { echoText } from './echo-text.js';
import { completionLogprobsBody, type CompletionLogprobsBody } from './logprobs-body.js';
import { responseId } from '../response-id.js';
import { rawOutputFor } from '../raw-output.js';

export type CompletionChoiceBody = {
  index: number;
  text: string;
  logprobs: CompletionLogprobsBody | null;
  finish_reason: FinishReason | null;
  /** Not in Fireworks' schema: reasoning a chat backend returned apart, kept rather than dropped. */
  reasoning_content?: string;
  raw_output?: Record<string, unknown>;
  prompt_token_ids?: number[];
  token_ids?: number[];
};

export type CompletionBody = {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CompletionChoiceBody[];
  usage?: UsageBody;
  perf_metrics?: Record<string, unknown>;
};

/**
 * @example serializeCompletionResult({id: 'cmpl-1', model: 'm', created: 1, choices: [{index: 0, text: ' there', finishReason: 'length'}]}, request)
 * // {id: 'cmpl-1', object: 'text_completion', created: 1, model: 'm',
 * //  choices: [{index: 0, text: ' there', logprobs: null, finish_reason: 'length'}]}
 */
export function serializeCompletionResult(result: NeutralResult, request: NeutralRequest): CompletionBody {
  const body: CompletionBody = {
    id: responseId(result.id, 'text'),
    object: 'text_completion',
    created: result.created,
    model: result.model,
    choices: result.choices.map((choice) => choiceBody(choice, request)),
  };
  if (result.usage) body.usage = usageBody(result.usage, { openaiDetails: false });
  if (request.perfMetricsInBody) body.perf_metrics = perfMetricsBody(result.perf, result.usage);
  return body;
}

function choiceBody(choice: ResultChoice, request: NeutralRequest): CompletionChoiceBody {
  const echo = echoText(choice, request);
  const prefix = echo?.text ?? '';
  const body: CompletionChoiceBody = {
    index: choice.index,
    text: prefix + choice.text,
    logprobs: null,
    finish_reason: choice.finishReason,
  };
  if (request.logprobs && (choice.logprobs || (echo && echo.tokens.length > 0))) {
    // Prompt tokens count from 0, generated ones from the end of the echoed text.
    const entries = [...withTextOffsets(echo?.tokens ?? [], 0), ...withTextOffsets(choice.logprobs ?? [], characterCount(prefix))];
    body.logprobs = completionLogprobsBody(entries, request.logprobs);
  }
  if (choice.reasoning) body.reasoning_content = choice.reasoning;
  const rawOutput = rawOutputFor(request, choice);
  if (rawOutput) body.raw_output = rawOutput;
  if (request.returnTokenIds && choice.promptTokenIds) body.prompt_token_ids = choice.promptTokenIds;
  if (request.returnTokenIds && choice.tokenIds) body.token_ids = choice.tokenIds;
  return body;
}
