/**
 * The OpenTelemetry GenAI semantic conventions (gen-ai-spans.md, semantic-conventions
 * 1.37+) for a neutral request and its answer, and the proxy's own attributes
 * under `dialect_proxy.`. The names are written out rather than imported from
 * the conventions' `incubating` entry, as its authors advise (a unit test
 * compares them with that entry).
 */
import type { Attributes } from '@opentelemetry/api';
import type { Endpoint, NeutralRequest } from '../model/request.js';
import type { NeutralResult, Usage } from '../model/result.js';

export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  maxTokens: 'gen_ai.request.max_tokens',
  temperature: 'gen_ai.request.temperature',
  topP: 'gen_ai.request.top_p',
  topK: 'gen_ai.request.top_k',
  frequencyPenalty: 'gen_ai.request.frequency_penalty',
  presencePenalty: 'gen_ai.request.presence_penalty',
  seed: 'gen_ai.request.seed',
  stopSequences: 'gen_ai.request.stop_sequences',
  choiceCount: 'gen_ai.request.choice.count',
  stream: 'gen_ai.request.stream',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  timeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
} as const;

/** `chat` for every chat-shaped dialect (Chat Completions, Responses, Messages), `text_completion` for completions. */
export function operationOf(endpoint: Endpoint): 'chat' | 'text_completion' {
  return endpoint === 'chat' ? 'chat' : 'text_completion';
}

/** The request's settings the conventions name; only those the caller set. */
export function requestAttributes(request: NeutralRequest): Attributes {
  const { sampling, limits } = request;
  const attributes: Attributes = { [GEN_AI.requestModel]: request.model };
  const set = (name: string, value: number | undefined) => {
    if (value !== undefined) attributes[name] = value;
  };
  set(GEN_AI.maxTokens, limits.maxTokens);
  set(GEN_AI.temperature, sampling.temperature);
  set(GEN_AI.topP, sampling.topP);
  set(GEN_AI.topK, sampling.topK);
  set(GEN_AI.frequencyPenalty, sampling.frequencyPenalty);
  set(GEN_AI.presencePenalty, sampling.presencePenalty);
  set(GEN_AI.seed, sampling.seed);
  if (limits.stop.length > 0) attributes[GEN_AI.stopSequences] = limits.stop;
  if (request.choices !== 1) attributes[GEN_AI.choiceCount] = request.choices;
  if (request.stream) attributes[GEN_AI.stream] = true;
  return attributes;
}

/** What an answer says about itself: its id, model and the finish reason of each choice. */
export interface AnswerFacts {
  id?: string;
  model?: string;
  finishReasons: string[];
}

export function answerFactsOf(result: NeutralResult): AnswerFacts {
  return {
    id: result.id,
    model: result.model,
    finishReasons: result.choices.map((choice) => choice.finishReason ?? 'error'),
  };
}

export function answerAttributes(facts: AnswerFacts): Attributes {
  const attributes: Attributes = {};
  if (facts.id) attributes[GEN_AI.responseId] = facts.id;
  if (facts.model) attributes[GEN_AI.responseModel] = facts.model;
  if (facts.finishReasons.length > 0) attributes[GEN_AI.finishReasons] = facts.finishReasons;
  return attributes;
}

export function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {
    [GEN_AI.inputTokens]: usage.promptTokens,
    [GEN_AI.outputTokens]: usage.completionTokens,
  };
  if (usage.cachedPromptTokens !== undefined) attributes[GEN_AI.cacheReadTokens] = usage.cachedPromptTokens;
  if (usage.reasoningTokens !== undefined) attributes[GEN_AI.reasoningTokens] = usage.reasoningTokens;
  return attributes;
}

/** The proxy's own attributes (not in the conventions), in one place. */
export const PROXY = {
  requestId: 'dialect_proxy.request_id',
  dialect: 'dialect_proxy.dialect',
  route: 'dialect_proxy.route',
  backend: 'dialect_proxy.backend',
  backendKind: 'dialect_proxy.backend.kind',
  tried: 'dialect_proxy.backends_tried',
  fallbacks: 'dialect_proxy.fallbacks',
  retries: 'dialect_proxy.retries',
  translation: 'dialect_proxy.translation',
  renamed: 'dialect_proxy.fields.renamed',
  converted: 'dialect_proxy.fields.converted',
  emulated: 'dialect_proxy.fields.emulated',
  dropped: 'dialect_proxy.fields.dropped',
  ttftMs: 'dialect_proxy.time_to_first_token_ms',
} as const;
