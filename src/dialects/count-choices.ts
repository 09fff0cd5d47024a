/** How many choices a caller gets back: `n` per prompt (completions may send a batch of prompts). */
import type { NeutralRequest, Prompt } from '../model/request.js';

/** A batch is an array of strings or of token arrays; a single string or token array is one prompt. */
function isBatch(prompt: Prompt | undefined): prompt is string[] | number[][] {
  return Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number';
}

export function countPrompts(prompt: Prompt | undefined): number {
  return isBatch(prompt) ? prompt.length : 1;
}

export function countChoices(request: NeutralRequest): number {
  return request.choices * (request.endpoint === 'text' ? countPrompts(request.prompt) : 1);
}

/** The prompt choice `index` answers: choices are numbered `n` per prompt, prompt by prompt (OpenAI's order). */
export function promptOfChoice(request: NeutralRequest, index: number): string | number[] | undefined {
  const prompt = request.prompt;
  return isBatch(prompt) ? prompt[Math.floor(index / request.choices)] : prompt;
}
