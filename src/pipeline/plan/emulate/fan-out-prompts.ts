/**
 * A prompt batch (`prompt: string[]` or `number[][]`) on a backend that takes
 * one prompt per request: one request per prompt, and prompt i's choice j
 * becomes choice i * n + j, as the completions API numbers them.
 */
import type { NeutralRequest } from '../../../model/request.js';
import type { Engine } from './engine.js';
import { completeFanOut, streamFanOut, type FanOutPart } from './fan-out.js';

export function fanOutPrompts(inner: Engine): Engine {
  return {
    complete: (request, context) => completeFanOut(inner, perPrompt(request), context),
    stream: (request, context) => streamFanOut(inner, perPrompt(request), context),
  };
}

/** True when the prompt is a batch rather than one string or one token-id list. */
export function isPromptBatch(prompt: NeutralRequest['prompt']): prompt is string[] | number[][] {
  return Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number';
}

function perPrompt(request: NeutralRequest): FanOutPart[] {
  if (!isPromptBatch(request.prompt)) return [{ request, choiceOffset: 0 }];
  // Per-prompt image lists (`images: string[][]`) go with their prompt.
  const perPromptImages = Array.isArray(request.images?.[0]) ? (request.images as string[][]) : undefined;
  return request.prompt.map((prompt, i) => {
    const images = perPromptImages ? { images: perPromptImages[i] ?? [] } : {};
    return { request: { ...request, prompt, ...images }, choiceOffset: i * request.choices };
  });
}
