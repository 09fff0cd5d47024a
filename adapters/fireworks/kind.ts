/** `kind: fireworks`: `/completions` and `/chat/completions` with every Fireworks extension (fields.ts, wire-extras.ts). */
import { defineOpenAICompatibleKind } from '../openai/openai-compatible-kind.js';
import { FIREWORKS_EFFORTS, FIREWORKS_TABLE } from './fields.js';
import { toWireBody } from './to-wire-body.js';
import { fireworksExtras } from './wire-extras.js';

const fireworks = defineOpenAICompatibleKind({
  name: 'fireworks',
  table: FIREWORKS_TABLE,
  speaks: ['completions', 'chat'],
  // The deployment's `--max-logprobs`, 5 unless configured.
  maxTopLogprobs: 5,
  efforts: FIREWORKS_EFFORTS,
  toWireBody,
  extras: fireworksExtras,
});

export const fireworksKind = fireworks.kind;
export const fireworksCapabilities = fireworks.capabilities;
/** Fireworks' wire: its bodies, and the OpenAI-compatible readers with its extensions. */
export const fireworksCodec = fireworks.codec;

/**
 * @example
 * const fireworks = createFireworksAdapter({ kind: 'fireworks', url: 'https://api.fireworks.ai/inference/v1', apiKey: process.env.FIREWORKS_API_KEY });
 * for await (const batch of fireworks.stream(request, { signal, requestId: 'req-1' })) { ... } // each packet's events
 */
export const createFireworksAdapter = fireworks.createAdapter;
