/**
 * Every registered kind's field table: one entry for every neutral field (the
 * type says so at compile time; this says so for the tables as built), and a
 * reason for every refusal, since the fate table and the 400s print it.
 */
import { BACKEND_KINDS } from '../../../adapters/registry.js';
import { handlingOf } from '../../../src/backend/field-support.js';
import { NEUTRAL_FIELD_NAMES } from '../../../src/model/neutral-fields.js';

describe.each(BACKEND_KINDS.map((kind) => [kind.name, kind] as const))('%s', (_name, kind) => {
  test('its table has exactly the neutral fields, each with a handling per endpoint', async () => {
    const adapter = await kind.create(kind.name, kind.defaults);
    try {
      const { fields } = adapter.capabilities;
      expect(Object.keys(fields).sort()).toEqual([...NEUTRAL_FIELD_NAMES].sort());
      for (const field of NEUTRAL_FIELD_NAMES) {
        for (const endpoint of ['chat', 'text'] as const) {
          const handling = handlingOf(fields, field, endpoint);
          if (handling.kind === 'unsupported') expect(handling.why.length).toBeGreaterThan(0);
          if (handling.kind === 'copy') expect(handling.wire).toMatch(/^[a-zA-Z_]+$/);
        }
      }
    } finally {
      await adapter.close?.();
    }
  });

  test('its defaults pass its own config check', () => {
    expect(() => kind.check(structuredClone({ ...kind.defaults }) as Record<string, unknown>, `backends.${kind.name}`)).not.toThrow();
  });
});
