/**
 * A neutral text request -> the engine's generate request. Pure; what each
 * field becomes is the field table's (fields.ts), and every field the engine
 * cannot take was refused by the plan step.
 */
import type { BackendTable } from '../../src/backend/field-support.js';
import { writeFields } from '../../src/backend/write-fields.js';
import { invalidRequest } from '../../src/errors/proxy-error.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { llamaCppTable } from './fields.js';
import type { LlamaGenerateRequest } from './types.js';

export { defaultBudgetEndText, defaultThinkTags } from './fields.js';

const DEFAULT_TABLE = llamaCppTable();

export function toGenerateRequest(request: NeutralRequest, table: BackendTable = DEFAULT_TABLE): LlamaGenerateRequest {
  const body: Record<string, unknown> = {
    prompt: singlePrompt(request),
    onContextOverflow: request.limits.onContextOverflow,
    stop: request.limits.stop,
  };
  return writeFields(body, request, table) as unknown as LlamaGenerateRequest;
}

/** The pipeline splits prompt batches (this backend has no native choices), so one prompt arrives here. */
function singlePrompt(request: NeutralRequest): string | number[] {
  const prompt = request.prompt;
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt) && prompt.every((item) => typeof item === 'number')) return prompt as number[];
  throw invalidRequest('prompt', 'The local model takes one prompt (a string or a list of token ids) per generation.');
}
