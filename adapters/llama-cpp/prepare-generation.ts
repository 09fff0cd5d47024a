/**
 * Checks a request against the model before it queues: validates the prompt's
 * tokens (a text's, tokenized by the caller, or the ids given), and fits
 * max_tokens into the context with exact counts.
 */
import { invalidLlamaRequest, LlamaRequestError } from './errors.js';
import type { LlamaGenerateRequest } from './types.js';

export interface ModelFacts {
  bos: number | null;
  /** The model's own BOS setting (text prompts). */
  addBos: boolean;
  vocabularySize: number;
  contextSize: number;
}

export interface PreparedGeneration {
  request: LlamaGenerateRequest;
  promptTokens: number[];
  /** True when we prepended BOS (it is then not echoed). */
  bosAdded: boolean;
  maxTokens: number;
  seed: number;
}

/** `tokens`: the text prompt's tokens (special tokens parsed), or the prompt's token ids. */
export function prepareGeneration(request: LlamaGenerateRequest, tokens: readonly number[], model: ModelFacts): PreparedGeneration {
  const text = typeof request.prompt === 'string';
  const body = [...tokens];
  if (!text) {
    const bad = body.find((token) => !Number.isInteger(token) || token < 0 || token >= model.vocabularySize);
    if (bad !== undefined)
      throw invalidLlamaRequest('prompt', `Token id ${bad} is outside the vocabulary (0..${model.vocabularySize - 1}).`);
  }
  const wantsBos = request.addBos ?? (text ? model.addBos : false);
  const bosAdded = wantsBos && model.bos !== null && body[0] !== model.bos;
  const promptTokens = bosAdded ? [model.bos as number, ...body] : body;
  if (promptTokens.length === 0) throw invalidLlamaRequest('prompt', 'The prompt is empty.');
  for (const key of Object.keys(request.logitBias ?? {})) {
    const token = Number(key);
    if (!Number.isInteger(token) || token < 0 || token >= model.vocabularySize) {
      throw invalidLlamaRequest('logit_bias', `Token id ${key} is outside the vocabulary (0..${model.vocabularySize - 1}).`);
    }
  }
  const room = model.contextSize - promptTokens.length;
  const exceeded = (param: string, message: string) =>
    new LlamaRequestError({ status: 400, code: 'context_length_exceeded', param, message });
  if (room < 0 || (room === 0 && request.maxTokens !== 0)) {
    throw exceeded(
      'prompt',
      `The prompt has ${promptTokens.length} tokens, more than the model's context holds: contextSize ${model.contextSize} tokens (raise contextSize in the backend's settings; memory grows with it).`,
    );
  }
  let maxTokens = request.maxTokens ?? room;
  if (maxTokens > room) {
    if (request.onContextOverflow === 'error') {
      throw exceeded(
        'max_tokens',
        `The prompt (${promptTokens.length} tokens) plus max_tokens (${maxTokens}) exceeds the context of ${model.contextSize} tokens.`,
      );
    }
    maxTokens = room;
  }
  const seed = request.seed ?? Math.floor(Math.random() * 0x1_0000_0000);
  return { request, promptTokens, bosAdded, maxTokens, seed: seed >>> 0 };
}
