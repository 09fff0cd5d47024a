/** Reading a completions prompt: one prompt or a batch, text or token ids, and which prompt a choice answers. */
import type { NeutralRequest, Prompt } from './request.js';

/** A batch is an array of strings or of token arrays; a single string or token array is one prompt. */
export function isPromptBatch(prompt: Prompt | undefined): prompt is string[] | number[][] {
  return Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number';
}

/** True when the prompt (or any prompt of the batch) is token ids rather than text. */
export function isTokenIdPrompt(prompt: Prompt | undefined): boolean {
  return Array.isArray(prompt) && prompt.some((item) => typeof item === 'number' || Array.isArray(item));
}

export function countPrompts(prompt: Prompt | undefined): number {
  return isPromptBatch(prompt) ? prompt.length : 1;
}

/** How many choices a caller gets back: `n` per prompt (completions may send a batch of prompts). */
export function countChoices(request: NeutralRequest): number {
  return request.choices * (request.endpoint === 'text' ? countPrompts(request.prompt) : 1);
}

/** The prompt choice `index` answers: choices are numbered `n` per prompt, prompt by prompt (OpenAI's order). */
export function promptOfChoice(request: NeutralRequest, index: number): string | number[] | undefined {
  const prompt = request.prompt;
  return isPromptBatch(prompt) ? prompt[Math.floor(index / request.choices)] : prompt;
}
