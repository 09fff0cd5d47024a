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
import { buildFateTable, type FateTable, type Treatment } from '../../../src/commands/fields/fate-table.js';
import { BASE_BODIES, samplesFor } from '../../../src/commands/fields/field-samples.js';
import { REGENERATE, renderFateTable } from '../../../src/commands/fields/render-fate-table.js';
import { createRequestValidator } from '../../../src/validation/create-validator.js';
import type { DocumentName } from '../../../src/validation/load-openapi-document.js';
import { listRequestFields } from '../../helpers/list-request-fields.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIALECT_DOCUMENT = { 'openai-chat': 'chat', 'fireworks-completions': 'text', 'openai-responses': 'responses' } as const;

let table: FateTable;

beforeAll(async () => {
  table = await buildFateTable();
});

function cell(fates: FateTable, dialect: keyof typeof DIALECT_DOCUMENT, field: string, backend: string): Treatment[] {
  const row = fates.dialects.find((d) => d.dialect === dialect)?.rows.find((r) => r.field === field);
  if (!row) throw new Error(`no row ${dialect}.${field}`);
  return row.backends[backend];
}

describe('docs/fields.md', () => {
  it('is the table the code produces now', () => {
    const committed = readFileSync(resolve(repoRoot, 'docs/fields.md'), 'utf8');
    const generated = renderFateTable(table, 'markdown');
    const firstDifference = generated.split('\n').find((line, i) => line !== committed.split('\n')[i]);
    const verdict =
      generated === committed ? 'up to date' : `docs/fields.md is stale (first changed line: ${firstDifference}); run: ${REGENERATE}`;
    expect(verdict).toBe('up to date');
  });
});

describe('rows', () => {
  it.each(Object.entries(DIALECT_DOCUMENT))(
    '%s has a row for every property of its OpenAPI request schema, in no other',
    (dialect, document) => {
      const rows = table.dialects.find((d) => d.dialect === dialect)?.rows.map((row) => row.field) ?? [];
      const properties = listRequestFields(document);
      expect(properties.filter((field) => !rows.includes(field))).toEqual([]);
      expect(rows.filter((field) => !properties.includes(field))).toEqual([]);
    },
  );

  it('has a cell for every backend column', () => {
    const names = table.backends.map((backend) => backend.name);
    expect(names).toEqual(['openai', 'fireworks', 'llama-server', 'vllm', 'anthropic', 'gemini', 'llama-cpp']);
    for (const dialect of table.dialects) {
      for (const row of dialect.rows) expect(Object.keys(row.backends)).toEqual(names);
    }
  });
});

describe('field samples', () => {
  it('are valid requests of each dialect that has the field (our OpenAPI documents), the base bodies too', async () => {
    const validator = await createRequestValidator();
    const invalid: string[] = [];
    const missing: string[] = [];
    for (const document of Object.values(DIALECT_DOCUMENT) as DocumentName[]) {
      const base = validator.validate(document, BASE_BODIES[document]);
      if (base.length > 0) invalid.push(`${document} base body: ${base[0].message}`);
      for (const field of listRequestFields(document)) {
        const samples = samplesFor(field, document);
        if (samples.length === 0) missing.push(`${document} ${field}`);
        for (const sample of samples) {
          const body = { ...BASE_BODIES[document], ...sample.with, [field]: sample.value };
          const issues = validator.validate(document, body);
          if (issues.length > 0) invalid.push(`${document} ${field} ${sample.label ?? ''}: ${issues[0].message}`);
        }
      }
    }
    expect(invalid).toEqual([]);
    expect(missing).toEqual([]);
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
    expect(cell(table, 'openai-chat', 'tools', 'llama-cpp')).toEqual(
      expect.arrayContaining([
        { label: 'function', ...emulated },
        { label: 'custom (text)', ...emulated },
      ]),
    );
    const completionsOnly = await buildFateTable([
      { name: 'completions-only', settings: { kind: 'llama-server', url: 'http://backend.invalid/v1', speaks: ['completions'] } },
    ]);
    expect(cell(completionsOnly, 'openai-chat', 'tools', 'completions-only')).toEqual(
      expect.arrayContaining([{ label: 'function', ...emulated }]),
    );
    expect(cell(completionsOnly, 'openai-chat', 'messages', 'completions-only')).toEqual([emulated]);
  });

  it('custom tools: carried as a function where only function tools are taken; a grammar on the input refused there', () => {
    const tools = cell(table, 'openai-chat', 'tools', 'fireworks');
    expect(tools).toContainEqual(
      expect.objectContaining({
        label: 'custom (text)',
        outcome: 'emulated',
        detail: expect.stringMatching(/one string parameter, `input`/),
      }),
    );
    expect(tools).toContainEqual(
      expect.objectContaining({
        label: 'custom (regex)',
        outcome: 'rejected',
        detail: expect.stringMatching(/regex grammar, which is not supported by this backend/),
      }),
    );
  });

  it('n on llama-cpp follows its capabilities (nativeChoices)', () => {
    const expected = choicesAreNative(llamaCppCapabilities())
      ? [{ outcome: 'native' }]
      : [{ outcome: 'emulated', detail: 'fanned out: one upstream request per choice' }];
    expect(cell(table, 'openai-chat', 'n', 'llama-cpp')).toEqual(expected);
    expect(cell(table, 'fireworks-completions', 'n', 'llama-cpp')).toEqual(expected);
    expect(cell(table, 'openai-chat', 'n', 'openai')).toEqual([{ outcome: 'native' }]);
  });

  it('stream_options buffering is emulated by the proxy on every backend, in both dialects', () => {
    for (const dialect of ['openai-chat', 'fireworks-completions'] as const) {
      for (const backend of table.backends) {
        expect(cell(table, dialect, 'stream_options', backend.name)).toContainEqual({
          label: 'buffer_*',
          outcome: 'emulated',
          detail: 'the proxy buffers and coalesces the stream (streaming/coalesce-events.ts)',
        });
      }
    }
  });

  it('a field the dialect rejects is n/a on every backend', () => {
    for (const backend of table.backends) expect(cell(table, 'openai-chat', 'echo', backend.name)).toEqual([{ outcome: 'n/a' }]);
  });

  it('responses tools: native on openai, rendered into the prompt where only completions are spoken, hosted tools dropped when offered and refused when forced', async () => {
    const tools = cell(table, 'openai-responses', 'tools', 'openai');
    expect(tools).toContainEqual({ label: 'function', outcome: 'native' });
    for (const backend of table.backends) {
      expect(cell(table, 'openai-responses', 'tools', backend.name)).toContainEqual(
        expect.objectContaining({
          label: 'web_search (hosted)',
          outcome: 'ignored',
          detail: expect.stringMatching(/^with a warning: tools\[0\] dropped: 'web_search', a hosted tool/),
        }),
      );
      expect(cell(table, 'openai-responses', 'tool_choice', backend.name)).toContainEqual(
        expect.objectContaining({
          label: 'hosted (forced)',
          outcome: 'rejected',
          detail: expect.stringMatching(/^by the dialect: tool_choice forces 'web_search_preview', a hosted tool/),
        }),
      );
    }
    const completionsOnly = await buildFateTable([
      { name: 'completions-only', settings: { kind: 'llama-server', url: 'http://backend.invalid/v1', speaks: ['completions'] } },
    ]);
    expect(cell(completionsOnly, 'openai-responses', 'tools', 'completions-only')).toContainEqual({
      label: 'function',
      outcome: 'emulated',
      detail: 'rendered into the prompt by the chat template (ChatML unless configured)',
    });
  });

  it("responses reasoning.effort goes through each backend's ladder", () => {
    expect(cell(table, 'openai-responses', 'reasoning', 'vllm')).toContainEqual({
      label: 'effort xhigh',
      outcome: 'emulated',
      detail: 'reasoning.effort "xhigh" was sent as "high", the nearest effort this backend takes',
    });
    expect(cell(table, 'openai-responses', 'reasoning', 'llama-cpp')).toContainEqual({
      label: 'effort high',
      outcome: 'emulated',
      detail: 'reasoning.effort "high" was sent as a thinking budget of 16384 tokens',
    });
  });

  it('responses metadata is kept by the proxy; truncation auto is the default; stateful fields need a store', () => {
    for (const backend of table.backends) {
      expect(cell(table, 'openai-responses', 'metadata', backend.name)).toEqual([
        { outcome: 'emulated', detail: expect.stringMatching(/^kept by the proxy/) },
      ]);
      expect(cell(table, 'openai-responses', 'truncation', backend.name)).toContainEqual({
        label: 'auto',
        outcome: 'native',
        detail: 'the default: same as leaving it out',
      });
      expect(cell(table, 'openai-responses', 'conversation', backend.name)).toEqual([{ outcome: 'n/a' }]);
      // Refused by the dialect unless a response store is configured (the pipeline then takes them over).
      for (const field of ['background', 'previous_response_id']) {
        expect(cell(table, 'openai-responses', field, backend.name)).toEqual([
          { outcome: 'rejected', detail: expect.stringMatching(/needs a response store/) },
        ]);
      }
    }
  });

  it('top_logprobs above a backend limit is a 400 the proxy cannot drop', () => {
    expect(cell(table, 'openai-chat', 'top_logprobs', 'fireworks')).toEqual([
      { label: '3', outcome: 'native' },
      {
        label: '20',
        outcome: 'rejected',
        detail: 'top_logprobs 20 is not supported by this backend, which returns at most 5 alternatives per token',
      },
    ]);
  });
});
