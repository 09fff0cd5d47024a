import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGgufFileInfo } from 'node-llama-cpp';
import { buildBuiltinModel, ensureBuiltinModel } from '../../../adapters/llama-cpp/builtin-model.js';
import { writeGguf } from '../../../adapters/llama-cpp/gguf-writer.js';

describe('writeGguf', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'gguf-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a GGUF v3 file that node-llama-cpp reads back: metadata, tensor dims, aligned offsets', async () => {
    const bytes = writeGguf({
      metadata: [
        ['general.architecture', { type: 'string', value: 'llama' }],
        ['test.count', { type: 'uint32', value: 7 }],
        ['test.ratio', { type: 'float32', value: 0.5 }],
        ['test.flag', { type: 'bool', value: true }],
        ['test.words', { type: 'array', itemType: 'string', value: ['a', 'bc'] }],
        ['test.numbers', { type: 'array', itemType: 'int32', value: [1, -2] }],
      ],
      tensors: [
        { name: 'a.weight', dims: [3], data: Float32Array.of(1, 2, 3) },
        { name: 'b.weight', dims: [2, 2], data: Float32Array.of(1, 2, 3, 4) },
      ],
    });
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('GGUF');
    const path = join(dir, 'small.gguf');
    writeFileSync(path, bytes);
    const info = await readGgufFileInfo(path, { readTensorInfo: true });
    expect(info.version).toBe(3);
    const metadata = info.metadata as unknown as Record<string, Record<string, unknown>>;
    expect(metadata.general.architecture).toBe('llama');
    expect(metadata.test).toEqual({ count: 7, ratio: 0.5, flag: true, words: ['a', 'bc'], numbers: [1, -2] });
    const tensors = info.fullTensorInfo ?? info.tensorInfo ?? [];
    expect(tensors.map((tensor) => [tensor.name, tensor.dimensions.map(Number), Number(tensor.offset)])).toEqual([
      ['a.weight', [3], 0],
      ['b.weight', [2, 2], 32],
    ]);
    // the data section starts aligned: 12 bytes of a, padding to 32, 16 bytes of b
    expect((bytes.length - 48) % 32).toBe(0);
    expect(new Float32Array(bytes.slice(bytes.length - 16).buffer)).toEqual(Float32Array.of(1, 2, 3, 4));
  });
});

describe('builtin model', () => {
  let cache: string;
  beforeAll(() => (cache = mkdtempSync(join(tmpdir(), 'builtin-'))));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('is byte-identical on every build', () => {
    expect(Buffer.from(buildBuiltinModel()).equals(Buffer.from(buildBuiltinModel()))).toBe(true);
  });

  it('is written once into the cache and reused while its hash matches', () => {
    const path = ensureBuiltinModel(cache);
    expect(path).toMatch(/models\/builtin-[0-9a-f]{16}\.gguf$/);
    const written = statSync(path).mtimeMs;
    expect(ensureBuiltinModel(cache)).toBe(path);
    expect(statSync(path).mtimeMs).toBe(written);
    writeFileSync(path, 'corrupted');
    expect(ensureBuiltinModel(cache)).toBe(path);
    expect(Buffer.from(readFileSync(path)).equals(Buffer.from(buildBuiltinModel()))).toBe(true);
  });

  it('has the llama layout llama.cpp needs', async () => {
    const info = await readGgufFileInfo(ensureBuiltinModel(cache), { readTensorInfo: true });
    const metadata = info.metadata as unknown as {
      llama: Record<string, unknown>;
      tokenizer: { ggml: { model: string; tokens: string[] }; chat_template: string };
    };
    expect(metadata.llama).toMatchObject({ context_length: 2048, embedding_length: 64, block_count: 2 });
    expect(metadata.tokenizer.ggml.model).toBe('llama');
    expect(metadata.tokenizer.ggml.tokens).toHaveLength(262);
    expect(metadata.tokenizer.chat_template).toContain('<|im_start|>');
    const names = (info.fullTensorInfo ?? info.tensorInfo ?? []).map((tensor) => tensor.name);
    expect(names).toEqual(expect.arrayContaining(['token_embd.weight', 'output.weight', 'blk.1.ffn_down.weight']));
  });
});
