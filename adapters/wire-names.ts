/**
 * Outbound sampling fields as tables: each backend lists, one line per field,
 * the wire name it gives a neutral sampling setting. A setting a backend does
 * not list never reaches it (the plan has already rejected or dropped it).
 */
import type { Sampling } from '../src/model/request.js';

type FlatSampling = Exclude<keyof Sampling, 'mirostat'>;
export type SamplingNames = Readonly<Partial<Record<FlatSampling, string>>>;

/** OpenAI's own sampling fields; every OpenAI-wire backend takes at least these. */
export const OPENAI_SAMPLING: SamplingNames = {
  temperature: 'temperature',
  topP: 'top_p',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  seed: 'seed',
  logitBias: 'logit_bias',
};

/** The set settings of `sampling` under their wire names. */
export function samplingOnWire(sampling: Sampling, names: SamplingNames): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(names) as [FlatSampling, string][]) {
    if (sampling[key] !== undefined) wire[name] = sampling[key];
  }
  return wire;
}
