/**
 * A neutral text request -> the engine's generate request. Pure; every field the
 * engine cannot take was refused by the plan step (see `capabilities`).
 */
import { invalidRequest } from '../../src/errors/proxy-error.js';
import type { NeutralRequest, ResponseFormat } from '../../src/model/request.js';
import type { LlamaGenerateRequest, LlamaGrammarSpec, LlamaThinkingBudget } from './types.js';

/** Qwen3's suggested words for a thought cut short by its budget. */
export const defaultBudgetEndText = '\n\nConsidering the limited time by the user, I have to give the solution based on the thinking directly now.\n';
export const defaultThinkTags = { open: '<think>', close: '</think>' } as const;

export interface ToGenerateOptions {
  thinkTags?: { open: string; close: string };
}

export function toGenerateRequest(request: NeutralRequest, options: ToGenerateOptions = {}): LlamaGenerateRequest {
  const prompt = singlePrompt(request);
  const { sampling, limits } = request;
  const out: LlamaGenerateRequest = {
    prompt,
    onContextOverflow: limits.onContextOverflow,
    stop: limits.stop,
  };
  const optional: Partial<LlamaGenerateRequest> = {
    maxTokens: limits.maxTokens,
    ignoreEos: limits.ignoreEos,
    temperature: sampling.temperature,
    topK: sampling.topK,
    topP: sampling.topP,
    minP: sampling.minP,
    typicalP: sampling.typicalP,
    repetitionPenalty: sampling.repetitionPenalty,
    presencePenalty: sampling.presencePenalty,
    frequencyPenalty: sampling.frequencyPenalty,
    seed: sampling.seed,
    logitBias: sampling.logitBias && tokenBias(sampling.logitBias, request.origins['sampling.logitBias'] ?? 'logit_bias'),
    logprobs: request.logprobs?.top,
    echo: request.echo,
    grammar: request.responseFormat && grammarOf(request.responseFormat),
    thinking: thinkingOf(request, prompt, options.thinkTags ?? defaultThinkTags),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** The pipeline splits prompt batches (this backend has no native choices), so one prompt arrives here. */
function singlePrompt(request: NeutralRequest): string | number[] {
  const prompt = request.prompt;
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt) && prompt.every((item) => typeof item === 'number')) return prompt as number[];
  throw invalidRequest('prompt', 'The local model takes one prompt (a string or a list of token ids) per generation.');
}

function tokenBias(bias: Record<string, number>, param: string): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [key, value] of Object.entries(bias)) {
    if (!/^\d+$/.test(key)) throw invalidRequest(`${param}.${key}`, `logit_bias keys must be token ids; got "${key}".`);
    out[Number(key)] = value;
  }
  return out;
}

function grammarOf(format: ResponseFormat): LlamaGrammarSpec | undefined {
  switch (format.type) {
    case 'text': return undefined;
    case 'json_object': return format.schema ? { kind: 'json-schema', schema: format.schema } : { kind: 'json' };
    case 'json_schema': return { kind: 'json-schema', schema: format.schema };
    case 'grammar': return { kind: 'gbnf', text: format.grammar };
  }
}

/** A thinking budget; the thought counts as open from the start when the prompt ends with the open tag. */
function thinkingOf(request: NeutralRequest, prompt: string | number[], tags: { open: string; close: string }): LlamaThinkingBudget | undefined {
  const budget = request.reasoning?.budgetTokens;
  if (budget === undefined) return undefined;
  return {
    budgetTokens: budget,
    budgetEndText: request.reasoning?.budgetEndText ?? defaultBudgetEndText,
    openTag: tags.open,
    closeTag: tags.close,
    startsInside: typeof prompt === 'string' && prompt.trimEnd().endsWith(tags.open),
  };
}
