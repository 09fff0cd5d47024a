/** docs/migration.md (the README links it): the worked example and the audit shown there are what the commands print. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runAuditCommand } from '../../src/commands/audit-command.js';
import { runTranslateCommand } from '../../src/commands/translate-command.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const section = readFileSync(path.join(root, 'docs/migration.md'), 'utf8');

/** The fenced block of `lang` that follows `marker` in the section. */
function blockAfter(marker: string, lang: string): string {
  const at = section.indexOf(marker);
  if (at < 0) throw new Error(`docs/migration.md: no "${marker}"`);
  const start = section.indexOf('```' + lang + '\n', at);
  return section.slice(start + lang.length + 4, section.indexOf('\n```', start + 3));
}

async function translate(args: string[], body: string): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runTranslateCommand(args, {
    stdin: Readable.from([body]),
    out: (chunk) => {
      text += chunk;
    },
    err: () => undefined,
  });
  return { code, text };
}

test('the Fireworks request moved to OpenAI: the report printed in the README, exit 2', async () => {
  const request = blockAfter('A client sends this to Fireworks', 'json');
  const shown = blockAfter('What happens to it on OpenAI?', 'console').split('\n');
  expect(shown[0]).toBe('$ npx dialect-proxy translate --to openai request.json');
  const { code, text } = await translate(['--to', 'openai'], request);
  expect(code).toBe(2);
  // Everything up to the upstream body, which the README shortens.
  const head = shown.slice(1, shown.indexOf('Upstream request, without the rejected fields:') + 2);
  expect(text.split('\n').slice(0, head.length)).toEqual(head);
});

test('the moved request goes to OpenAI as it is and still runs on Fireworks', async () => {
  const request = blockAfter('The moved request', 'json');
  const shown = blockAfter('The moved request', 'console');
  const openai = await translate(['--to', 'openai', '--model', 'o4-mini'], request);
  expect(openai.code).toBe(0);
  expect(shown).toContain(openai.text.split('\n').slice(0, 4).join('\n'));
  const fireworks = await translate(['--to', 'fireworks'], request);
  expect(fireworks.code).toBe(0);
  expect(shown).toContain(fireworks.text.split('\n').slice(3, 5).join('\n'));
});

test("the audit shown is the fixture's", async () => {
  const shown = blockAfter('## A whole log', 'console').split('\n');
  expect(shown[0]).toBe('$ npx dialect-proxy audit requests.jsonl --to openai');
  let text = '';
  const cwd = process.cwd();
  process.chdir(path.join(root, 'test/cli-golden/audit'));
  try {
    expect(
      await runAuditCommand(['requests.jsonl', '--to', 'openai'], {
        out: (chunk) => {
          text += chunk;
        },
        progress: false,
      }),
    ).toBe(2);
  } finally {
    process.chdir(cwd);
  }
  expect(text).toBe(`${shown.slice(1).join('\n')}\n`);
});
