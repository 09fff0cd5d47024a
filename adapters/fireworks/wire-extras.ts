/**
 * Fireworks' response extensions: `token_ids`, `prompt_token_ids` (per choice,
 * or once at the top of a chat response), streamed
 * `delta.internal_content.token_id`, `raw_output`, and `perf_metrics`
 * (kept by wire name: they are already Fireworks' names).
 */
import type { PerfMetrics } from '../../src/model/result.js';
import { isRecord } from '../is-record.js';
import type { ChoiceExtras, WireExtras } from '../openai/wire-extras.js';

export const fireworksExtras: WireExtras = {
  readChoice(choice, body) {
    const extras: ChoiceExtras = {};
    // Documented under `choices[].delta`; a completions choice has no delta, so look beside it too.
    const holder = isRecord(choice.delta) ? choice.delta : choice;
    const internal = isRecord(holder.internal_content) ? holder.internal_content.token_id : undefined;
    const tokenIds = ids(choice.token_ids) ?? ids(internal) ?? (typeof internal === 'number' ? [internal] : undefined);
    if (tokenIds) extras.tokenIds = tokenIds;
    const promptTokenIds = ids(choice.prompt_token_ids) ?? ids(body.prompt_token_ids);
    if (promptTokenIds) extras.promptTokenIds = promptTokenIds;
    if (isRecord(choice.raw_output)) extras.rawOutput = choice.raw_output;
    return extras;
  },
  readPerf(body): PerfMetrics | undefined {
    return isRecord(body.perf_metrics) ? { backend: body.perf_metrics } : undefined;
  },
};

function ids(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((id) => typeof id === 'number') ? value : undefined;
}
