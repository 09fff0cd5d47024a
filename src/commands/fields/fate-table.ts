/**
 * The fate table as data, for `dialect-proxy fields` and docs/fields.md: every
 * wire field of each dialect, in table order, with its fate and note from the
 * field table and what each backend kind does with it. The backend columns are
 * found, not written: each field's sample values run through the real parse,
 * plan and adapter wire code (treat-field.ts), with each kind's default
 * settings and the capabilities its adapter declares.
 */
import { choicesAreNative } from '../../backend/capabilities.js';
import type { Dialect } from '../../dialects/dialect.js';
import type { Fate } from '../../dialects/field-table.js';
import { DIALECTS } from '../../dialects/registry.js';
import { isDocumentName } from '../../validation/load-openapi-document.js';
import { DEFAULT_PROFILES, loadProfiles, type BackendProfile } from './backend-profiles.js';
import { treatField, type Treatment } from './treat-field.js';

export type { Outcome, Treatment } from './treat-field.js';

export interface FateRow {
  field: string;
  fate: Fate;
  note: string;
  /** Backend column name -> treatments (one, or one per sample when they differ). */
  backends: Record<string, Treatment[]>;
}

export interface DialectFates {
  dialect: Dialect['name'];
  /** The route, e.g. `POST /v1/chat/completions`. */
  route: string;
  rows: FateRow[];
}

export interface BackendColumn {
  name: string;
  kind: string;
  /** The endpoints it serves with its default settings; the other dialect is translated. */
  speaks: string[];
  nativeChoices: boolean;
  maxTopLogprobs: number;
}

export interface FateTable {
  backends: BackendColumn[];
  dialects: DialectFates[];
}

/**
 * Builds the table; pure apart from constructing (and closing) each kind's
 * adapter to read its capabilities. Pass other profiles to see another config.
 * @example const table = await buildFateTable(); table.dialects[0].rows[0].backends.openai // [{outcome: 'native'}]
 */
export async function buildFateTable(profiles: readonly BackendProfile[] = DEFAULT_PROFILES): Promise<FateTable> {
  const loaded = await loadProfiles(profiles);
  const dialects: DialectFates[] = [];
  for (const dialect of DIALECTS) {
    const route = `POST ${dialect.path}`;
    const { document } = dialect;
    if (!isDocumentName(document)) throw new Error(`fields: ${dialect.name}'s document "${document}" is not in OPENAPI_DOCUMENTS`);
    const rows: FateRow[] = [];
    for (const [field, rule] of Object.entries(dialect.fields)) {
      const backends: Record<string, Treatment[]> = {};
      const subject = {
        endpoint: dialect.endpoint,
        document,
        parse: (body: Record<string, unknown>) => dialect.parseRequest(body),
        field,
        rule,
      };
      for (const profile of loaded) backends[profile.name] = await treatField(subject, profile);
      rows.push({ field, fate: rule.fate, note: rule.note, backends });
    }
    dialects.push({ dialect: dialect.name, route, rows });
  }
  const backends = loaded.map(({ name, settings, capabilities }) => ({
    name,
    kind: settings.kind,
    speaks: [...capabilities.speaks],
    nativeChoices: choicesAreNative(capabilities),
    maxTopLogprobs: capabilities.maxTopLogprobs,
  }));
  return { backends, dialects };
}
