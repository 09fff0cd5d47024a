/**
 * Bench of the bundled worker, in one run: node-llama-cpp called directly
 * (LlamaCompletion, one thread) against dialect-proxy's `kind: llama-cpp`
 * over HTTP (the proxy in its own process), both on the same model and settings (2048-token context per
 * sequence, 4 sequences, 1 thread). Reports tokens/s for one
 * 256-token greedy stream and the aggregate of 4 concurrent streams.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaCompletion, LlamaLogLevel } from 'node-llama-cpp';
import { fork } from 'node:child_process';
import { once } from 'node:events';

const tokens = 256;
const prompt = 'Once upon a time';
const shared = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));

export interface WorkerBenchRow {
  name: string;
  direct: number;
  proxy: number;
}

async function directRates(modelPath: string, rounds: number): Promise<{ single: number[]; four: number[] }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 4 });
  const completions = Array.from({ length: 4 }, () => new LlamaCompletion({ contextSequence: context.getSequence() }));
  const generate = async (completion: LlamaCompletion) => {
    let count = 0;
    await completion.generateCompletion(prompt, { maxTokens: tokens, temperature: 0, onToken: (chunk) => { count += chunk.length; } });
    return count;
  };
  const single: number[] = [];
  const four: number[] = [];
  await generate(completions[0]); // warm-up
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    single.push((await generate(completions[0])) / ((performance.now() - started) / 1000));
    started = performance.now();
    const counts = await Promise.all(completions.map(generate));
    four.push(counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000));
  }
  await context.dispose();
  await model.dispose();
  return { single, four };
}

async function proxyRates(modelPath: string, rounds: number): Promise<{ single: number[]; four: number[] }> {
  const child = fork(fileURLToPath(new URL('./worker-proxy.js', import.meta.url)), [modelPath], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${line.toString().trim()}`;
  const stream = async () => {
    const response = await fetch(`${url}/v1/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench', prompt, max_tokens: tokens, temperature: 0, stream: true }),
    });
    const text = await response.text();
    const usage = /"completion_tokens":(\d+)/.exec(text);
    if (!usage) throw new Error(`no usage in the stream: ${text.slice(0, 200)}`);
    return Number(usage[1]);
  };
  const single: number[] = [];
  const four: number[] = [];
  await stream(); // warm-up
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    single.push((await stream()) / ((performance.now() - started) / 1000));
    started = performance.now();
    const counts = await Promise.all([stream(), stream(), stream(), stream()]);
    four.push(counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000));
  }
  child.kill();
  return { single, four };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchWorker(rounds: number): Promise<{ model: string; rows: WorkerBenchRow[] }> {
  const modelPath = existsSync(shared) ? shared : 'builtin';
  const proxy = await proxyRates(modelPath, rounds);
  const direct = modelPath === 'builtin' ? proxy : await directRates(modelPath, rounds);
  return {
    model: modelPath === 'builtin' ? 'builtin (../shared absent: no direct comparison)' : 'stories260K',
    rows: [
      { name: `1 stream, ${tokens}-token greedy`, direct: median(direct.single), proxy: median(proxy.single) },
      { name: '4 concurrent streams, aggregate', direct: median(direct.four), proxy: median(proxy.four) },
    ],
  };
}
