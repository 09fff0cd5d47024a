/**
 * The plan never changes its input: every sample of every dialect field,
 * parsed and deep-frozen, planned for every backend kind, refusing and
 * dropping. A write to the caller's request throws here (ES modules are strict).
 */
import { DIALECTS } from '../../../src/dialects/registry.js';
import { ProxyError } from '../../../src/errors/proxy-error.js';
import { loadProfiles, type LoadedProfile } from '../../../src/commands/fields/backend-profiles.js';
import { BASE_BODIES, samplesFor } from '../../../src/commands/fields/field-samples.js';
import { isDocumentName } from '../../../src/validation/load-openapi-document.js';
import type { NeutralRequest } from '../../../src/model/request.js';
import { planRequest } from '../../../src/pipeline/plan/plan.js';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function requestsOf(dialect: (typeof DIALECTS)[number]): { label: string; request: NeutralRequest }[] {
  const out: { label: string; request: NeutralRequest }[] = [];
  const { document } = dialect;
  if (!isDocumentName(document)) throw new Error(`${dialect.name}: no OpenAPI document "${document}"`);
  for (const field of Object.keys(dialect.fields)) {
    for (const sample of samplesFor(field, document)) {
      const body = { ...BASE_BODIES[document], ...sample.with, [field]: sample.value };
      try {
        out.push({ label: `${field}=${JSON.stringify(sample.value)}`, request: dialect.parseRequest(structuredClone(body)) });
      } catch {
        // refused by the dialect itself: nothing to plan
      }
    }
  }
  return out;
}

let profiles: LoadedProfile[];
beforeAll(async () => {
  profiles = await loadProfiles();
});

describe("planRequest leaves the caller's request as it was", () => {
  test.each(DIALECTS.map((dialect) => [dialect.name, dialect] as const))(
    '%s: every field sample, every kind, refusing and dropping',
    (_name, dialect) => {
      const requests = requestsOf(dialect);
      expect(requests.length).toBeGreaterThan(20);
      let planned = 0;
      for (const { label, request } of requests) {
        const before = JSON.stringify(request);
        deepFreeze(request);
        for (const profile of profiles) {
          for (const dropUnsupported of [false, true]) {
            const adapter = {
              name: profile.name,
              capabilities: profile.capabilities,
              toWire: profile.toWire,
              complete: () => {
                throw new Error('not called');
              },
              stream: () => {
                throw new Error('not called');
              },
            };
            const backend = { name: profile.name, settings: { ...profile.settings, dropUnsupported }, adapter };
            try {
              planRequest(request, { backend, upstreamModel: 'upstream' });
              planned++;
            } catch (error) {
              if (!(error instanceof ProxyError))
                throw new Error(`${dialect.name} ${label} on ${profile.name}: ${(error as Error).message}`, { cause: error });
            }
          }
        }
        expect(JSON.stringify(request)).toBe(before);
      }
      expect(planned).toBeGreaterThan(requests.length);
    },
  );
});
