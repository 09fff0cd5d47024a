/**
 * The fate table: docs/fields.md is what the code says today, every schema
 * property has a row, every sample is a valid request, and a few cells whose
 * answer we know from the code's own data.
 */
import { choicesAreNative } from '../../../src/backend/capabilities.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llamaCppCapabilities } from '../../../adapters/llama-cpp/llama-cpp-adapter.js';
import { buildFateTable, type FateTable, type Treatment } from '../../../src/fields/fate-table.js';
import { BASE_BODIES, FIELD_SAMPLES } from '../../../src/fields/field-samples.js';
import { REGENERATE, renderFateTable } from '../../../src/fields/render-fate-table.js';
import type { Endpoint } from '../../../src/model/request.js';
import { createRequestValidator } from '../../../src/validation/create-validator.js';
import { listRequestFields } from '../../helpers/list-request-fields.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIALECT_ENDPOINT = { 'openai-chat': 'chat', 'fireworks-completions': 'text' } as const;

let table: FateTable;

beforeAll(async () => {
  table = await buildFateTable();
});

function cell(fates: FateTable, dialect: keyof typeof DIALECT_ENDPOINT, field: string, backend: string): Treatment[] {
  const row = fates.dialects.find((d) => d.dialect === dialect)?.rows.find((r) => r.field === field);
  if (!row) throw new Error(`no row ${dialect}.${field}`);
  return row.backends[backend];
}

describe('docs/fields.md', () => {
  it('is the table the code produces now', () => {
    const committed = readFileSync(resolve(repoRoot, 'docs/fields.md'), 'utf8');
    const generated = renderFateTable(table, 'markdown');
    const firstDifference = generated.split('\n').find((line, i) => line !== committed.split('\n')[i]);
    const verdict = generated === committed ? 'up to date' : `docs/fields.md is stale (first changed line: ${firstDifference}); run: ${REGENERATE}`;
    expect(verdict).toBe('up to date');
  });
});

describe('rows', () => {
  it.each(Object.entries(DIALECT_ENDPOINT))('%s has a row for every property of its OpenAPI request schema, in no other', (dialect, endpoint) => {
    const rows = table.dialects.find((d) => d.dialect === dialect)?.rows.map((row) => row.field) ?? [];
    const properties = listRequestFields(endpoint);
    expect(properties.filter((field) => !rows.includes(field))).toEqual([]);
    expect(rows.filter((field) => !properties.includes(field))).toEqual([]);
  });

  it('has a cell for every backend column', () => {
    const names = table.backends.map((backend) => backend.name);
    expect(names).toEqual(['openai', 'fireworks', 'llama-server', 'vllm', 'llama-cpp']);
    for (const dialect of table.dialects) {
      for (const row of dialect.rows) expect(Object.keys(row.backends)).toEqual(names);
    }
  });
});

describe('field samples', () => {
  it('are valid requests of each dialect that has the field (our OpenAPI documents)', async () => {
    const validator = await createRequestValidator();
    const invalid: string[] = [];
    for (const endpoint of ['chat', 'text'] as Endpoint[]) {
      const properties = listRequestFields(endpoint);
      for (const [field, samples] of Object.entries(FIELD_SAMPLES)) {
        if (!properties.includes(field)) continue;
        for (const sample of samples) {
          if (sample.endpoint !== undefined && sample.endpoint !== endpoint) continue;
          const body = { ...BASE_BODIES[endpoint], ...sample.with, [field]: sample.value };
          const issues = validator.validate(endpoint, body);
          if (issues.length > 0) invalid.push(`${endpoint} ${field} ${sample.label ?? ''}: ${issues[0].message}`);
        }
      }
    }
    expect(invalid).toEqual([]);
  });
});

describe('derived cells', () => {
  it('top_k: rejected by strict OpenAI (or dropped), native on Fireworks', () => {
    expect(cell(table, 'openai-chat', 'top_k', 'openai')).toEqual([
      { outcome: 'rejected', detail: 'not supported by this backend (or dropped with a warning when dropUnsupported)' },
    ]);
    expect(cell(table, 'openai-chat', 'top_k', 'fireworks')).toEqual([{ outcome: 'native' }]);
    expect(cell(table, 'fireworks-completions', 'top_k', 'fireworks')).toEqual([{ outcome: 'native' }]);
  });

  it('tools: native where chat is spoken, rendered into the prompt where the chat is templated', async () => {
    // OpenAI takes function and custom tools alike (a grammar on a custom tool's input included).
    expect(cell(table, 'openai-chat', 'tools', 'openai')).toEqual([{ outcome: 'native' }]);
    const emulated = { outcome: 'emulated', detail: 'rendered into the prompt by the chat template (ChatML unless configured)' };
    // llama-cpp renders chat itself; a remote backend that only speaks completions goes through the plan's chat-over-text.
    expect(cell(table, 'openai-chat', 'tools', 'llama-cpp')).toEqual(expect.arrayContaining([{ label: 'function', ...emulated }, { label: 'custom (text)', ...emulated }]));
    const completionsOnly = await buildFateTable([{ name: 'completions-only', settings: { kind: 'llama-server', url: 'http://backend.invalid/v1', speaks: ['completions'] } }]);
    expect(cell(completionsOnly, 'openai-chat', 'tools', 'completions-only')).toEqual(expect.arrayContaining([{ label: 'function', ...emulated }]));
    expect(cell(completionsOnly, 'openai-chat', 'messages', 'completions-only')).toEqual([emulated]);
  });

  it('custom tools: carried as a function where only function tools are taken; a grammar on the input refused there', () => {
    const tools = cell(table, 'openai-chat', 'tools', 'fireworks');
    expect(tools).toContainEqual(expect.objectContaining({ label: 'custom (text)', outcome: 'emulated', detail: expect.stringMatching(/one string parameter, `input`/) }));
    expect(tools).toContainEqual(expect.objectContaining({ label: 'custom (regex)', outcome: 'rejected', detail: expect.stringMatching(/regex grammar, which is not supported by this backend/) }));
  });

  it('n on llama-cpp follows its capabilities (nativeChoices)', () => {
    const expected = choicesAreNative(llamaCppCapabilities()) ? [{ outcome: 'native' }] : [{ outcome: 'emulated', detail: 'fanned out: one upstream request per choice' }];
    expect(cell(table, 'openai-chat', 'n', 'llama-cpp')).toEqual(expected);
    expect(cell(table, 'fireworks-completions', 'n', 'llama-cpp')).toEqual(expected);
    expect(cell(table, 'openai-chat', 'n', 'openai')).toEqual([{ outcome: 'native' }]);
  });

  it('stream_options buffering is emulated by the proxy on every backend, in both dialects', () => {
    for (const dialect of ['openai-chat', 'fireworks-completions'] as const) {
      for (const backend of table.backends) {
        expect(cell(table, dialect, 'stream_options', backend.name)).toContainEqual({
          label: 'buffer_*', outcome: 'emulated', detail: 'the proxy buffers and coalesces the stream (streaming/coalesce-events.ts)',
        });
      }
    }
  });

  it('a field the dialect rejects is n/a on every backend', () => {
    for (const backend of table.backends) expect(cell(table, 'openai-chat', 'echo', backend.name)).toEqual([{ outcome: 'n/a' }]);
  });

  it('top_logprobs above a backend limit is a 400 the proxy cannot drop', () => {
    expect(cell(table, 'openai-chat', 'top_logprobs', 'fireworks')).toEqual([
      { label: '3', outcome: 'native' },
      { label: '20', outcome: 'rejected', detail: 'top_logprobs 20 is not supported by this backend, which returns at most 5 alternatives per token' },
    ]);
  });
});
