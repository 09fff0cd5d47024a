/**
 * Fireworks' response extensions: `token_ids`, `prompt_token_ids` (per choice,
 * or once at the top of a chat response), streamed
 * `delta.internal_content.token_id`, `raw_output`, and `perf_metrics`
 * (kept by wire name: they are already Fireworks' names).
 */
import type { PerfMetrics } from '../../src/model/result.js';
import { isRecord } from '../../src/model/is-record.js';
import { tokenIdList, type ChoiceExtras, type WireExtras } from '../openai/wire-extras.js';

export const fireworksExtras: WireExtras = {
  readChoice(choice, body) {
    const extras: ChoiceExtras = {};
    // Documented under `choices[].delta`; a completions choice has no delta, so look beside it too.
    const holder = isRecord(choice.delta) ? choice.delta : choice;
    const internal = isRecord(holder.internal_content) ? holder.internal_content.token_id : undefined;
    const tokenIds = tokenIdList(choice.token_ids) ?? tokenIdList(internal) ?? (typeof internal === 'number' ? [internal] : undefined);
    if (tokenIds) extras.tokenIds = tokenIds;
    const promptTokenIds = tokenIdList(choice.prompt_token_ids) ?? tokenIdList(body.prompt_token_ids);
    if (promptTokenIds) extras.promptTokenIds = promptTokenIds;
    if (isRecord(choice.raw_output)) extras.vendor = { fireworks: { rawOutput: choice.raw_output } };
    return extras;
  },
  readPerf(body): PerfMetrics | undefined {
    return isRecord(body.perf_metrics) ? { backend: body.perf_metrics } : undefined;
  },
};
