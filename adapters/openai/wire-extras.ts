/**
 * Backend-specific fields the shared OpenAI-compatible readers leave to each
 * backend: token ids, a vendor's own data (raw output), and timing metrics. The OpenAI adapter only
 * reads llama.cpp's `timings` (llama-server runs behind `kind: openai`);
 * Fireworks reads its own extensions (fireworks/wire-extras.ts).
 */
import type { PerfMetrics } from '../../src/model/result.js';
import { isRecord } from '../../src/model/is-record.js';
import type { VendorData } from '../../src/model/vendor-data.js';

export interface ChoiceExtras {
  tokenIds?: number[];
  promptTokenIds?: number[];
  /** A vendor's own data of the choice (Fireworks' raw output): on the result's choice, or on a stream's choice-end. */
  vendor?: VendorData<'choiceEnd'>;
}

export interface WireExtras {
  /** Fields of one wire choice (of a response or of a chunk); `body` is the whole response or chunk. */
  readChoice?(choice: Record<string, unknown>, body: Record<string, unknown>): ChoiceExtras;
  /** Timing metrics of a response, or of a chunk (the last ones seen win). */
  readPerf?(body: Record<string, unknown>): PerfMetrics | undefined;
}

/**
 * llama.cpp `timings` (ms) -> prefill and generation time (s). Its token counts
 * are left to `usage`; the timings are not passed by wire name because they are
 * not Fireworks `perf_metrics` names.
 * @example readTimings({timings: {prompt_ms: 3.7, predicted_ms: 1.7}}) // {prefillTime: 0.0037, generationTime: 0.0017}
 */
export function readTimings(body: Record<string, unknown>): PerfMetrics | undefined {
  const timings = body.timings;
  if (!isRecord(timings)) return undefined;
  const perf: PerfMetrics = {};
  if (typeof timings.prompt_ms === 'number') perf.prefillTime = timings.prompt_ms / 1000;
  if (typeof timings.predicted_ms === 'number') perf.generationTime = timings.predicted_ms / 1000;
  return Object.keys(perf).length > 0 ? perf : undefined;
}

/** A wire list of token ids, or undefined when the value is anything else. */
export function tokenIdList(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((id) => typeof id === 'number') ? value : undefined;
}

export const openAIExtras: WireExtras = { readPerf: readTimings };
