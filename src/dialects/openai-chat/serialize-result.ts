/**
 * NeutralResult -> OpenAI `chat.completion` (OpenAI 2.3.0
 * `CreateChatCompletionResponse`), plus the widely used `reasoning_content`
 * and Fireworks' extensions when the caller asked for them (`perf_metrics`,
 * `raw_output`, `token_ids`, `prompt_token_ids`).
 */
import { tooManyFunctionCalls } from '../../errors/catalogue.js';
import type { NeutralRequest, ToolCall } from '../../model/request.js';
import type { FinishReason, NeutralResult, ResultChoice } from '../../model/result.js';
import { perfMetricsBody } from '../perf-metrics-body.js';
import { usageBody, type UsageBody } from '../usage-body.js';
import { chatLogprobsBody, type ChatLogprobsBody } from './logprobs-body.js';
import { responseId } from '../response-id.js';
import { rawOutputFor } from '../raw-output.js';

export type ToolCallBody =
  | { id: string; type: 'function'; function: { name: string; arguments: string } }
  | { id: string; type: 'custom'; custom: { name: string; input: string } };

export type MessageBody = {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCallBody[];
  function_call?: { name: string; arguments: string };
  annotations?: unknown[];
};

export type ChatChoiceBody = {
  index: number;
  message: MessageBody;
  logprobs: ChatLogprobsBody;
  finish_reason: string | null;
  raw_output?: Record<string, unknown>;
  token_ids?: number[];
};

export type ChatCompletionBody = {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoiceBody[];
  usage?: UsageBody;
  service_tier?: string;
  system_fingerprint?: string;
  perf_metrics?: Record<string, unknown>;
  prompt_token_ids?: number[];
};

/**
 * @example serializeChatResult({id: 'chatcmpl-1', model: 'm', created: 1, choices: [{index: 0, text: 'Hi', finishReason: 'stop'}]}, request)
 * // {id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0,
 * //   message: {role: 'assistant', content: 'Hi', refusal: null}, logprobs: null, finish_reason: 'stop'}]}
 */
export function serializeChatResult(result: NeutralResult, request: NeutralRequest): ChatCompletionBody {
  const body: ChatCompletionBody = {
    id: responseId(result.id, 'chat'),
    object: 'chat.completion',
    created: result.created,
    model: result.model,
    choices: result.choices.map((choice) => choiceBody(choice, request)),
  };
  if (result.usage) body.usage = usageBody(result.usage, { openaiDetails: true });
  if (result.serviceTier !== undefined) body.service_tier = result.serviceTier;
  if (result.systemFingerprint !== undefined) body.system_fingerprint = result.systemFingerprint;
  if (request.perfMetricsInBody) body.perf_metrics = perfMetricsBody(result.perf, result.usage);
  // Fireworks puts the prompt's token ids once, at the top level (every choice shares the prompt).
  const promptTokenIds = result.choices.find((choice) => choice.promptTokenIds)?.promptTokenIds;
  if (request.returnTokenIds && promptTokenIds) body.prompt_token_ids = promptTokenIds;
  return body;
}

function choiceBody(choice: ResultChoice, request: NeutralRequest): ChatChoiceBody {
  const body: ChatChoiceBody = {
    index: choice.index,
    message: messageBody(choice, request),
    logprobs: chatLogprobsBody(choice.logprobs, request),
    finish_reason: chatFinishReason(choice.finishReason, request),
  };
  const rawOutput = rawOutputFor(request, choice);
  if (rawOutput) body.raw_output = rawOutput;
  if (request.returnTokenIds && choice.tokenIds) body.token_ids = choice.tokenIds;
  return body;
}

function messageBody(choice: ResultChoice, request: NeutralRequest): MessageBody {
  const calls = choice.toolCalls ?? [];
  // OpenAI answers `content: null` when the model only called tools or refused.
  const contentless = choice.text === '' && (calls.length > 0 || Boolean(choice.refusal));
  const message: MessageBody = { role: 'assistant', content: contentless ? null : choice.text, refusal: choice.refusal ?? null };
  if (choice.reasoning) message.reasoning_content = choice.reasoning;
  if (choice.annotations) message.annotations = choice.annotations;
  if (calls.length > 0 && request.legacyFunctions) message.function_call = legacyFunctionCall(calls);
  else if (calls.length > 0) message.tool_calls = calls.map(toolCallBody);
  return message;
}

function toolCallBody(call: ToolCall): ToolCallBody {
  if (call.custom) return { id: call.id, type: 'custom', custom: { name: call.name, input: call.arguments } };
  return { id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } };
}

function legacyFunctionCall(calls: readonly ToolCall[]): { name: string; arguments: string } {
  if (calls.length > 1) throw tooManyFunctionCalls(calls.length);
  return { name: calls[0].name, arguments: calls[0].arguments };
}

/** Legacy `functions` callers get the deprecated `function_call` reason. */
export function chatFinishReason(reason: FinishReason | null, request: NeutralRequest): string | null {
  return reason === 'tool_calls' && request.legacyFunctions ? 'function_call' : reason;
}
