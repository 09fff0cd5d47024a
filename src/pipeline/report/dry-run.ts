/**
 * Runs one parsed request through the real plan and its emulation wrappers
 * against a recorder in place of the backend's adapter: what would be sent
 * upstream, how many times, or the 400 the plan or the adapter answers. No
 * I/O. Serves the translation report (`x-dialect-dry-run`, `dialect-proxy
 * translate` and `audit`: translation-report.ts) and the fate table (`dialect-proxy fields`).
 */
import type { Adapter, AdapterContext } from '../../backend/adapter.js';
import type { FieldPlan } from '../../backend/field-plan.js';
import type { ProxyError } from '../../errors/proxy-error.js';
import type { NeutralRequest } from '../../model/request.js';
import type { NeutralResult } from '../../model/result.js';
import type { StreamBatches } from '../../model/stream-event.js';
import { eachEvent } from '../../streaming/stream-batches.js';
import type { PlanNote } from '../plan/plan-notes.js';
import { planRequest, type Plan, type PlanOptions } from '../plan/plan.js';
import type { RouteMatch } from '../plan/route-table.js';

/** One upstream call: `stream` or `complete`, the endpoint, and the body the adapter builds. */
export interface SentCall {
  call: 'complete' | 'stream';
  endpoint: 'chat' | 'completions';
  body: Record<string, unknown>;
}

export interface DryRun {
  /** The requests the backend receives (several when the proxy fans out). */
  received: NeutralRequest[];
  sent: SentCall[];
  /** Every warning the request collected, parsing included. */
  warnings: string[];
  /** The plan's notes (plan-notes.ts). */
  notes: readonly PlanNote[];
  /** Each field the caller sent and its fate (src/backend/field-plan.ts). */
  fields: FieldPlan;
  /** What else the plan decided: the translation between endpoints, the fan-out, what rendering a prompt adds. */
  plan: Pick<Plan, 'mode' | 'fanOut' | 'rendering'>;
  /** With `collectRefusals`: the first refusal, as a caller meets it. */
  refusal?: ProxyError;
}

/**
 * Throws the ProxyError a caller would get (the plan's or the adapter's).
 * @example const { sent } = await dryRun(parseChatRequest(body), runtime.routes.match(model)); // sent[0].body.top_k
 */
export async function dryRun(
  request: NeutralRequest,
  match: RouteMatch,
  options: { dropUnsupported?: boolean } & PlanOptions = {},
): Promise<DryRun> {
  const real = match.backend.adapter;
  const received: NeutralRequest[] = [];
  const sent: SentCall[] = [];
  const record = (call: SentCall['call'], upstream: NeutralRequest) => {
    received.push(upstream);
    sent.push({ call, endpoint: upstream.endpoint === 'chat' ? 'chat' : 'completions', body: real.toWire(upstream) });
  };
  const adapter: Adapter = {
    name: real.name,
    capabilities: real.capabilities,
    ...(real.chatTemplate ? { chatTemplate: real.chatTemplate } : {}),
    ...(real.chatTemplatePending ? { chatTemplatePending: true } : {}),
    toWire: (upstream) => real.toWire(upstream),
    async complete(upstream) {
      record('complete', upstream);
      return emptyResult(upstream);
    },
    async *stream(upstream): StreamBatches {
      record('stream', upstream);
      yield [
        { type: 'response-start', id: 'dry-run', model: upstream.model, created: 0 },
        { type: 'choice-end', choice: 0, finishReason: 'stop' },
      ];
    },
  };
  const settings = {
    ...match.backend.settings,
    dropUnsupported: options.dropUnsupported ?? match.backend.settings.dropUnsupported ?? false,
  };
  const plan = planRequest(
    request,
    { ...match, backend: { ...match.backend, settings, adapter } },
    { ...(options.limits ? { limits: options.limits } : {}), ...(options.collectRefusals ? { collectRefusals: true } : {}) },
  );
  const context: AdapterContext = { signal: new AbortController().signal, requestId: 'dry-run' };
  // As handle-request does: a stream when the caller asked for one.
  if (plan.request.stream) {
    for await (const event of eachEvent(plan.engine.stream(plan.request, context))) if (event.type === 'error') throw event.error;
  } else {
    await plan.engine.complete(plan.request, context);
  }
  return {
    received,
    sent,
    warnings: plan.warnings,
    notes: plan.notes,
    fields: plan.fields,
    plan: { mode: plan.mode, fanOut: plan.fanOut, ...(plan.rendering ? { rendering: plan.rendering } : {}) },
    ...(plan.refusal ? { refusal: plan.refusal } : {}),
  };
}

function emptyResult(request: NeutralRequest): NeutralResult {
  return { id: 'dry-run', model: request.model, created: 0, choices: [{ index: 0, text: '', finishReason: 'stop' }] };
}
