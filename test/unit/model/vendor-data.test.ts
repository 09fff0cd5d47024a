/**
 * Vendor data rides in its vendor's namespace (src/model/vendor-data.ts). Taking a key out never changes
 * what the caller's request holds: a plan's copy shares its parts. The lines marked as type errors are
 * checked by `npm run lint`'s tsc (ts-jest only transpiles).
 */
import type { ContentPart, NeutralRequest } from '../../../src/model/request.js';
import { emptyRequest } from '../../../src/model/request.js';
import { NEUTRAL_FIELDS, asksFor } from '../../../src/model/neutral-fields.js';
import { withoutVendorKey, type VendorData } from '../../../src/model/vendor-data.js';

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

describe('withoutVendorKey', () => {
  test('a copy without the key; the namespace goes once empty, and `vendor` once it holds none', () => {
    const part: ContentPart = Object.freeze({
      type: 'text',
      text: 'Long document',
      vendor: Object.freeze({ anthropic: Object.freeze({ cacheControl: { type: 'ephemeral' as const } }) }),
    });
    expect(withoutVendorKey(part, 'anthropic', 'cacheControl')).toEqual({ type: 'text', text: 'Long document' });
    expect(part.vendor?.anthropic?.cacheControl).toEqual({ type: 'ephemeral' });

    const request: NeutralRequest = {
      ...emptyRequest('chat'),
      vendor: { anthropic: { betas: ['b-1'], contextManagement: { edits: [] } }, fireworks: { rawOutput: true } },
    };
    expect(withoutVendorKey(request, 'anthropic', 'contextManagement').vendor).toEqual({
      anthropic: { betas: ['b-1'] },
      fireworks: { rawOutput: true },
    });
    expect(withoutVendorKey(request, 'fireworks', 'rawOutput').vendor).toEqual({
      anthropic: { betas: ['b-1'], contextManagement: { edits: [] } },
    });
  });

  test('the holder itself when the key is not there', () => {
    const part: ContentPart = { type: 'text', text: 'Hi' };
    expect(withoutVendorKey(part, 'anthropic', 'cacheControl')).toBe(part);
  });
});

test("the cache_control field drops every breakpoint, leaving the rest of Anthropic's namespace", () => {
  const cached = { anthropic: { cacheControl: { type: 'ephemeral' as const } } };
  const request: NeutralRequest = {
    ...emptyRequest('chat'),
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Doc', vendor: cached }] }],
    tools: [{ name: 'f', vendor: cached }],
    vendor: { anthropic: { cacheControl: { type: 'ephemeral' }, betas: ['b-1'] } },
  };
  deepFreeze(request);
  const copy = { ...request };
  expect(asksFor(copy, 'cacheControl')).toBe(true);
  NEUTRAL_FIELDS.cacheControl.drop(copy);
  expect(asksFor(copy, 'cacheControl')).toBe(false);
  expect(copy.vendor).toEqual({ anthropic: { betas: ['b-1'] } });
  expect(copy.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Doc' }] }]);
  expect(copy.tools).toEqual([{ name: 'f' }]);
  expect(request.tools?.[0].vendor).toBe(cached);
});

test('each namespace is typed as its vendor declared it, and only where that vendor has data', () => {
  const part: VendorData<'part'> = { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } };
  // @ts-expect-error a cache breakpoint's type is 'ephemeral'
  const wrongType: VendorData<'part'> = { anthropic: { cacheControl: { type: 'persistent' } } };
  // @ts-expect-error Fireworks has no data on a content part
  const noSuchPlace: VendorData<'part'> = { fireworks: { rawOutput: true } };
  expect([part, wrongType, noSuchPlace]).toHaveLength(3);
});
