/** `dialect-proxy fields`: text by default, one field on request, a field no dialect has named with the closest one. */
import { fieldsCommand } from '../../../src/commands/fields/fields-command.js';
import { UsageError } from '../../../src/commands/parse-command-line.js';

test('FIELD: that field alone, in each dialect that has it', async () => {
  const text = await fieldsCommand(['top_k'], { width: 200 });
  const dialects = text.split('\n').filter((line) => /^\S+: POST \//.test(line));
  expect(dialects).toEqual([
    'openai-chat: POST /v1/chat/completions',
    'fireworks-completions: POST /v1/completions',
    'anthropic-messages: POST /v1/messages',
  ]);
  expect(text.split('\n').filter((line) => line.startsWith('  ') && !line.startsWith('    '))).toEqual(
    Array(3).fill('  top_k (map: sampling.topK)'),
  );
  expect(text).toMatch(/^ {4}openai {8}rejected: not supported by this backend/m);
});

test('FIELD as JSON: the table cut to its rows', async () => {
  const table = JSON.parse(await fieldsCommand(['top_k', '--format', 'json'])) as { dialects: { rows: { field: string }[] }[] };
  expect(table.dialects.flatMap(({ rows }) => rows.map(({ field }) => field))).toEqual(['top_k', 'top_k', 'top_k']);
});

test('the default is text; markdown on request', async () => {
  expect(await fieldsCommand(['logit_bias'])).not.toContain('|---|');
  expect(await fieldsCommand(['logit_bias', '--format', 'markdown'])).toContain('| `logit_bias` |');
});

test('a field no dialect has, a format it does not write, two fields: UsageErrors', async () => {
  await expect(fieldsCommand(['top_kk'])).rejects.toThrow(new UsageError('no request field "top_kk" in any dialect (did you mean top_k?)'));
  await expect(fieldsCommand(['--format', 'xml'])).rejects.toThrow(new UsageError('--format: text, markdown or json (got "xml")'));
  await expect(fieldsCommand(['top_k', 'top_p'])).rejects.toThrow(new UsageError('one field at a time (got top_k, top_p)'));
});
