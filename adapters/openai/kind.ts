/**
 * `kind: openai`: strict OpenAI. Fields OpenAI does not accept are never sent;
 * its field table (fields.ts) tells the plan which to reject (or drop) first.
 */
import { defineOpenAICompatibleKind } from './openai-compatible-kind.js';
import { OPENAI_EFFORTS, OPENAI_TABLE } from './fields.js';
import { toWireBody } from './to-wire-body.js';
import { openAIExtras } from './wire-extras.js';

const openai = defineOpenAICompatibleKind({
  name: 'openai',
  table: OPENAI_TABLE,
  speaks: ['chat'],
  maxTopLogprobs: 20,
  efforts: OPENAI_EFFORTS,
  toWireBody,
  // Only llama.cpp's `timings` (llama-server runs behind `kind: openai` too).
  extras: openAIExtras,
});

export const openaiKind = openai.kind;
export const openAICapabilities = openai.capabilities;

/**
 * @example
 * const openai = createOpenAIAdapter({ kind: 'openai', url: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY });
 * const result = await openai.complete(request, { signal, requestId: 'req-1' });
 */
export const createOpenAIAdapter = openai.createAdapter;
