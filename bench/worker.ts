/**
 * Bench of the bundled worker, in one run: node-llama-cpp called directly
 * (LlamaCompletion, one thread) against dialect-proxy's `kind: llama-cpp`
 * over HTTP (the proxy in its own process), both on the same model and
 * settings (2048-token context per sequence, 4 sequences, 1 thread). Rounds
 * alternate between the two, so drift on a shared machine hits both alike.
 * Reports tokens/s for one 256-token greedy stream and the aggregate of 4
 * concurrent streams.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaCompletion, LlamaLogLevel } from 'node-llama-cpp';

const tokens = 256;
const prompt = 'Once upon a time';
const shared = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));

export interface WorkerBenchRow {
  name: string;
  direct: number;
  proxy: number;
}

type Generate = () => Promise<number>;

/** node-llama-cpp in this process: one completion per sequence. */
async function directGenerators(modelPath: string): Promise<{ generators: Generate[]; close(): Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 4 });
  const generators = Array.from({ length: 4 }, () => {
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    return async () => {
      let count = 0;
      await completion.generateCompletion(prompt, { maxTokens: tokens, temperature: 0, onToken: (chunk) => { count += chunk.length; } });
      return count;
    };
  });
  return { generators, close: async () => { await context.dispose(); await model.dispose(); } };
}

/** The proxy in a child process; each call streams one completion and counts its tokens from usage. */
async function proxyGenerator(modelPath: string): Promise<{ generate: Generate; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL('./worker-proxy.js', import.meta.url)), [modelPath], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const url = `http://127.0.0.1:${line.toString().trim()}/v1/completions`;
  const generate = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench', prompt, max_tokens: tokens, temperature: 0, stream: true }),
    });
    const text = await response.text();
    const usage = /"completion_tokens":(\d+)/.exec(text);
    if (!usage) throw new Error(`no usage in the stream: ${text.slice(0, 200)}`);
    return Number(usage[1]);
  };
  return { generate, child };
}

/** Tokens per second of the given generations run at once. */
async function rate(generations: Generate[]): Promise<number> {
  const started = performance.now();
  const counts = await Promise.all(generations.map((generate) => generate()));
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchWorker(rounds: number): Promise<{ model: string; rows: WorkerBenchRow[] } | undefined> {
  if (!existsSync(shared)) return undefined; // the reference model lives in ../shared
  const direct = await directGenerators(shared);
  const proxy = await proxyGenerator(shared);
  const results = { directOne: [] as number[], proxyOne: [] as number[], directFour: [] as number[], proxyFour: [] as number[] };
  try {
    await rate([direct.generators[0]]); // warm-up
    await rate([proxy.generate]);
    for (let round = 0; round < rounds; round++) {
      results.directOne.push(await rate([direct.generators[0]]));
      results.proxyOne.push(await rate([proxy.generate]));
      results.directFour.push(await rate(direct.generators));
      results.proxyFour.push(await rate([proxy.generate, proxy.generate, proxy.generate, proxy.generate]));
    }
  } finally {
    proxy.child.kill();
    await direct.close();
  }
  return {
    model: 'stories260K',
    rows: [
      { name: `1 stream, ${tokens}-token greedy`, direct: median(results.directOne), proxy: median(results.proxyOne) },
      { name: '4 concurrent streams, aggregate', direct: median(results.directFour), proxy: median(results.proxyFour) },
    ],
  };
}
