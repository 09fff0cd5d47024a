import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { runTranslateCommand } from '../../src/translate-command.js';

const dir = mkdtempSync(join(tmpdir(), 'translate-'));
const configPath = join(dir, 'proxy.yaml');
writeFileSync(configPath, `
backends:
  openai: { kind: openai, url: "http://127.0.0.1:9/v1", speaks: [chat] }
routes:
  - { model: "*", backend: openai }
`);

async function translate(body: unknown, args: string[] = []): Promise<{ code: number; output: unknown }> {
  let text = '';
  const code = await runTranslateCommand(['--config', configPath, ...args], { stdin: Readable.from([JSON.stringify(body)]), out: (chunk) => { text += chunk; } });
  return { code, output: JSON.parse(text) };
}

describe('dialect-proxy translate', () => {
  test('prints what a completions request becomes on a chat-only backend', async () => {
    expect(await translate({ model: 'gpt-4o', prompt: 'Hello', max_tokens: 5, stream: true })).toEqual({
      code: 0,
      output: {
        object: 'dialect.dry_run',
        backend: 'openai',
        kind: 'openai',
        warnings: [],
        upstream: [{
          endpoint: '/chat/completions',
          stream: true,
          body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello' }], max_completion_tokens: 5, stream: true, stream_options: { include_usage: true } },
        }],
      },
    });
  });

  test('prints the error a caller would get for what the move would lose, and exits 1', async () => {
    const { code, output } = await translate({ model: 'gpt-4o', prompt: 'Hello', echo: true });
    expect(code).toBe(1);
    expect(output).toMatchObject({ status: 400, error: { param: 'echo', code: 'unsupported_parameter' } });
  });

  test('--endpoint chooses the dialect', async () => {
    const { output } = await translate({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], top_k: 3 }, ['--endpoint', 'chat']);
    expect(output).toMatchObject({ status: 400, error: { param: 'top_k' } });
  });
});
