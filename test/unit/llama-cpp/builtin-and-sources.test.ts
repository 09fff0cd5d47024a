/** Model sources: the generated built-in model end to end, a local GGUF with a big vocabulary, and hf: without a network. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { run, tinyRandomPath } from './helpers.js';
import { describeWithShared } from '../../helpers/shared.js';

describe('model: builtin', () => {
  let cacheDir: string;
  let host: LlamaWorkerHost;
  beforeAll(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'dialect-proxy-cache-'));
    host = new LlamaWorkerHost({ model: 'builtin', cacheDir, parallel: 2, showProgress: false });
  });
  afterAll(async () => {
    await host.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('is generated into the cache and loads through llama.cpp', async () => {
    const info = await host.start();
    expect(info.path.startsWith(join(cacheDir, 'models', 'builtin-'))).toBe(true);
    expect(info).toMatchObject({ name: 'dialect-proxy builtin', architecture: 'llama', vocabularySize: 262, contextSize: 2048 });
    expect(info.chatTemplate).toContain('<|im_start|>');
  });

  it('generates deterministically, and byte tokens never reach the text broken', async () => {
    const first = await run(host, { prompt: 'Hello ☃', temperature: 0, maxTokens: 48, logprobs: 0 });
    const again = await run(host, { prompt: 'Hello ☃', temperature: 0, maxTokens: 48 });
    expect(first.end.usage).toMatchObject({ completionTokens: 48 });
    expect(again.text).toBe(first.text);
    expect(again.tokenIds).toEqual(first.tokenIds);
    const bytes = first.events.flatMap((event) => (event.type === 'token' ? (event.logprobs ?? []).flatMap((entry) => entry.bytes) : []));
    expect(first.text).toBe(new TextDecoder().decode(Uint8Array.from(bytes)));
  });

  it('tokenizes text as bytes, its ChatML markers as single tokens', async () => {
    expect(await host.tokenize('A ☃')).toEqual([3 + 0x41, 259, 3 + 0xe2, 3 + 0x98, 3 + 0x83]);
    expect(await host.tokenize('<|im_start|>')).toEqual([260]);
    const rendered = await host.renderChat([{ role: 'user', content: 'Hi' }]);
    expect(rendered).toEqual({ prompt: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n', addBos: true });
    const chat = await run(host, { prompt: rendered.prompt, temperature: 0, maxTokens: 8 });
    expect(chat.end.usage.promptTokens).toBe((await host.tokenize(rendered.prompt)).length + 1);
  });
});

describeWithShared(tinyRandomPath)('a 32k-vocabulary model (llama-2-tiny-random, random weights)', () => {
  const host = new LlamaWorkerHost({ model: tinyRandomPath, showProgress: false });
  afterAll(() => host.close());

  it('streams valid UTF-8: each chunk is the exact decoding of its tokens, characters split over byte tokens are held', async () => {
    // Favour the byte tokens of "☃" (e2 98 83; byte b is token 3 + b) so characters get split across tokens.
    const logitBias = { [3 + 0xe2]: 12, [3 + 0x98]: 12, [3 + 0x83]: 12 };
    const result = await run(host, {
      prompt: '日本語のテキスト ☃ héllo',
      temperature: 1,
      seed: 4,
      maxTokens: 120,
      ignoreEos: true,
      logprobs: 0,
      logitBias,
    });
    const decoder = new TextDecoder();
    let splitCharacters = 0;
    for (const event of result.events) {
      if (event.type !== 'token') continue;
      const bytes = (event.logprobs ?? []).flatMap((entry) => entry.bytes);
      expect(event.text).toBe(decoder.decode(Uint8Array.from(bytes)));
      if (event.tokenIds.length > 1) splitCharacters++;
    }
    expect(result.end.usage.completionTokens).toBe(120);
    expect(splitCharacters).toBeGreaterThan(0);
  });
});

describe('model: hf:', () => {
  it('fails quickly with a clear error when Hugging Face cannot be reached', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'dialect-proxy-hf-'));
    const host = new LlamaWorkerHost({ model: 'hf:nobody/nothing/model.gguf', cacheDir, showProgress: false, downloadStallMs: 10_000 });
    const began = Date.now();
    try {
      await expect(host.start()).rejects.toMatchObject({
        status: 503,
        code: 'model_load_failed',
        message: expect.stringContaining('hf:nobody/nothing/model.gguf'),
      });
      expect(Date.now() - began).toBeLessThan(15_000);
    } finally {
      await host.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 20_000);

  it('names a missing local file', async () => {
    const host = new LlamaWorkerHost({ model: '/nonexistent/model.gguf', showProgress: false });
    await expect(host.start()).rejects.toMatchObject({ status: 503, message: expect.stringContaining('/nonexistent/model.gguf') });
    await host.close();
  });
});
