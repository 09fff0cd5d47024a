/**
 * Test helper: a request as a caller's reaches a kind's wire: planned for a
 * backend of that kind (the plan refuses what the kind's table does not take
 * on the endpoint it goes to), then built by the kind (its converters refuse
 * values they cannot send).
 */
import { findKind } from '../../adapters/registry.js';
import type { NeutralRequest } from '../../src/model/request.js';
import { planRequest } from '../../src/pipeline/plan/plan.js';
import type { BackendSettings } from '../../src/runtime/configuration.js';

export async function plannedWire(
  kind: string,
  extra: Record<string, unknown> = {},
): Promise<(request: NeutralRequest) => Record<string, unknown>> {
  const settings = { kind, url: 'http://127.0.0.1:9/v1', ...extra } as BackendSettings;
  const backendKind = findKind(kind);
  if (!backendKind) throw new Error(`no kind ${kind}`);
  const adapter = await backendKind.create('b', settings as never);
  return (request) => {
    const plan = planRequest(request, { backend: { name: 'b', adapter, settings }, upstreamModel: request.model });
    return adapter.toWire(plan.request);
  };
}
