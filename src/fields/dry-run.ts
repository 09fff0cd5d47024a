/**
 * Runs one parsed request through the real plan and its emulation wrappers
 * against a recorder in place of the backend: what would be sent upstream,
 * how many times, or the 400 the plan or the adapter answers. No I/O.
 */
import type { Adapter, AdapterContext } from '../../adapters/adapter.js';
import type { NeutralRequest } from '../model/request.js';
import type { NeutralResult } from '../model/result.js';
import type { StreamEvent } from '../model/stream-event.js';
import { planRequest } from '../pipeline/plan.js';
import type { LoadedProfile } from './backend-profiles.js';

/** One upstream call: `stream` or `complete`, and the body the adapter builds. */
export interface SentCall {
  call: 'complete' | 'stream';
  body: Record<string, unknown>;
}

export interface DryRun {
  /** The requests the backend receives (several when the proxy fans out). */
  received: NeutralRequest[];
  sent: SentCall[];
  /** Every warning the request collected, parsing included. */
  warnings: string[];
}

/**
 * Throws the ProxyError a caller would get (the plan's or the adapter's).
 * @example const { sent } = await dryRun(parseChatRequest(body), profile); // sent[0].body.top_k
 */
export async function dryRun(request: NeutralRequest, profile: LoadedProfile, options: { dropUnsupported?: boolean } = {}): Promise<DryRun> {
  const received: NeutralRequest[] = [];
  const sent: SentCall[] = [];
  const record = (call: SentCall['call'], upstream: NeutralRequest) => {
    received.push(upstream);
    sent.push({ call, body: profile.toWire(upstream) });
  };
  const adapter: Adapter = {
    name: profile.name,
    capabilities: profile.capabilities,
    toWire: profile.toWire,
    async complete(upstream) {
      record('complete', upstream);
      return emptyResult(upstream);
    },
    async *stream(upstream): AsyncGenerator<StreamEvent> {
      record('stream', upstream);
      yield { type: 'response-start', id: 'dry-run', model: upstream.model, created: 0 };
      yield { type: 'choice-end', choice: 0, finishReason: 'stop' };
    },
  };
  const settings = { ...profile.settings, dropUnsupported: options.dropUnsupported ?? false };
  const plan = planRequest(request, { backend: { name: profile.name, settings, adapter }, upstreamModel: request.model });
  const context: AdapterContext = { signal: new AbortController().signal, requestId: 'dry-run' };
  // As handle-request does: a stream when the caller asked for one.
  if (plan.request.stream) {
    for await (const event of plan.engine.stream(plan.request, context)) if (event.type === 'error') throw event.error;
  } else {
    await plan.engine.complete(plan.request, context);
  }
  return { received, sent, warnings: [...request.warnings] };
}

function emptyResult(request: NeutralRequest): NeutralResult {
  return { id: 'dry-run', model: request.model, created: 0, choices: [{ index: 0, text: '', finishReason: 'stop' }] };
}
