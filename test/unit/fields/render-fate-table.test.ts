/** Rendering (text for a terminal, Markdown for docs/fields.md, JSON): a small table in, the exact text out. */
import type { FateTable } from '../../../src/commands/fields/fate-table.js';
import { renderFateTable } from '../../../src/commands/fields/render-fate-table.js';

const table: FateTable = {
  backends: [{ name: 'openai', kind: 'openai', speaks: ['chat'], nativeChoices: true, maxTopLogprobs: 20 }],
  dialects: [
    {
      dialect: 'openai-chat',
      route: 'POST /v1/chat/completions',
      rows: [
        { field: 'top_k', fate: 'map', note: 'sampling.topK', backends: { openai: [{ outcome: 'rejected', detail: 'not supported' }] } },
        {
          field: 'response_format',
          fate: 'map',
          note: 'text | json_object',
          backends: {
            openai: [
              { label: 'json_object', outcome: 'native' },
              { label: 'grammar', outcome: 'rejected', detail: 'a | b' },
            ],
          },
        },
      ],
    },
  ],
};

describe('renderFateTable', () => {
  it('markdown: one table per dialect, samples by label, pipes escaped', () => {
    const lines = renderFateTable(table, 'markdown').split('\n');
    /** The rows after the dialect heading; the preamble is prose. */
    expect(lines.slice(lines.indexOf('## openai-chat: `POST /v1/chat/completions`'))).toEqual([
      '## openai-chat: `POST /v1/chat/completions`',
      '',
      '| field | fate | note | openai |',
      '|---|---|---|---|',
      '| `top_k` | map | sampling.topK | rejected: not supported |',
      '| `response_format` | map | text \\| json_object | *json_object*: native<br>*grammar*: rejected: a \\| b |',
      '',
    ]);
    expect(lines).toContain('| openai | openai | chat | native | 20 |');
  });

  it('text: per dialect, each field with one line per backend, samples by label, long details wrapped under their column', () => {
    const lines = renderFateTable(table, 'text', { width: 32 }).split('\n');
    expect(lines).toContain("Backends, with each kind's default settings: openai (chat).");
    expect(lines.slice(lines.indexOf('openai-chat: POST /v1/chat/completions'))).toEqual([
      'openai-chat: POST /v1/chat/completions',
      '',
      '  top_k (map: sampling.topK)',
      '    openai  rejected: not',
      '              supported',
      '',
      '  response_format (map: text | json_object)',
      '    openai  json_object: native',
      '            grammar: rejected: a',
      '              | b',
      '',
    ]);
  });

  it('json: the table itself', () => {
    expect(JSON.parse(renderFateTable(table, 'json'))).toEqual(table);
  });
});
