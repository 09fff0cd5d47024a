/**
 * Bench of the bundled worker, in one run: node-llama-cpp called directly
 * (LlamaCompletion, one thread) against dialect-proxy's `kind: llama-cpp`
 * over HTTP (the proxy in its own process), both on the same model and
 * settings (2048-token context per sequence, 4 sequences, 1 thread). Rounds
 * pair the two back to back (in alternating order), and the ratio reported is the
 * median of the rounds' ratios, so drift on a shared machine cancels out.
 * Reports tokens/s for one 256-token greedy stream and the aggregate of 4
 * concurrent streams.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaCompletion, LlamaLogLevel } from 'node-llama-cpp';
import { median, startChild } from './children.js';

const tokens = 256;
const prompt = 'Once upon a time';
const shared = fileURLToPath(new URL('../../../shared/models/stories260K.gguf', import.meta.url));

export interface WorkerBenchRow {
  name: string;
  direct: number;
  proxy: number;
  /** Median over rounds of proxy / direct measured back to back. */
  ratio: number;
  /** Median time to the first token, ms (for several streams, their mean). */
  directFirstTokenMs: number;
  proxyFirstTokenMs: number;
}

/** One generation: its token count and when its first token arrived, ms after the call. */
type Generate = () => Promise<{ tokens: number; firstTokenMs: number }>;

/** node-llama-cpp in this process: one completion per sequence. */
async function directGenerators(modelPath: string): Promise<{ generators: Generate[]; close(): Promise<void> }> {
  const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 4 });
  const generators = Array.from({ length: 4 }, () => {
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    return async () => {
      const started = performance.now();
      let count = 0;
      let firstTokenMs = 0;
      await completion.generateCompletion(prompt, {
        maxTokens: tokens,
        temperature: 0,
        onToken: (chunk) => {
          if (count === 0) firstTokenMs = performance.now() - started;
          count += chunk.length;
        },
      });
      return { tokens: count, firstTokenMs };
    };
  });
  return {
    generators,
    close: async () => {
      await context.dispose();
      await model.dispose();
    },
  };
}

/**
 * The proxy in a child process; each call streams one completion and counts its
 * tokens from the final usage. The client is plain node:http that keeps only the
 * stream's tail: on a 2-core machine a heavier client (fetch and web streams)
 * takes CPU from the generation it is measuring, which the direct side never pays.
 */
async function proxyGenerator(modelPath: string): Promise<{ generate: Generate; child: ChildProcess }> {
  const {
    process: child,
    ports: [port],
  } = await startChild('./worker-proxy.js', [modelPath]);
  const agent = new http.Agent({ keepAlive: true });
  const body = JSON.stringify({
    model: 'bench',
    prompt,
    max_tokens: tokens,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
  });
  const generate = () =>
    new Promise<{ tokens: number; firstTokenMs: number }>((resolve, reject) => {
      const started = performance.now();
      let firstTokenMs = 0;
      const request = http.request(
        { host: '127.0.0.1', port, path: '/v1/completions', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (response) => {
          let tail = '';
          response.on('data', (data: Buffer) => {
            firstTokenMs ||= performance.now() - started; // the headers leave with the first token's event
            tail = (tail + data.toString('latin1')).slice(-1024);
          });
          response.on('end', () => {
            const usage = /"completion_tokens":(\d+)/.exec(tail);
            if (usage) resolve({ tokens: Number(usage[1]), firstTokenMs });
            else reject(new Error(`no usage in the stream (status ${response.statusCode}): ${tail.slice(-200)}`));
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return { generate, child };
}

interface Measured {
  /** Tokens per second of all the generations together. */
  rate: number;
  /** Mean time to their first tokens, ms. */
  firstTokenMs: number;
}

/** Runs the given generations at once. */
async function measure(generations: Generate[]): Promise<Measured> {
  const started = performance.now();
  const results = await Promise.all(generations.map((generate) => generate()));
  const tokens = results.reduce((sum, result) => sum + result.tokens, 0);
  const firstTokenMs = results.reduce((sum, result) => sum + result.firstTokenMs, 0) / results.length;
  return { rate: tokens / ((performance.now() - started) / 1000), firstTokenMs };
}

export async function benchWorker(rounds: number): Promise<{ model: string; rows: WorkerBenchRow[] } | undefined> {
  if (!existsSync(shared)) return undefined; // the reference model lives in ../shared
  const direct = await directGenerators(shared);
  const proxy = await proxyGenerator(shared);
  const scenarios = [
    { name: `1 stream, ${tokens}-token greedy`, direct: [direct.generators[0]], proxy: [proxy.generate] },
    {
      name: '4 concurrent streams, aggregate',
      direct: direct.generators,
      proxy: [proxy.generate, proxy.generate, proxy.generate, proxy.generate],
    },
  ];
  const pairs = scenarios.map(() => [] as { direct: Measured; proxy: Measured }[]);
  try {
    await measure(scenarios[0].direct); // warm-up
    await measure(scenarios[0].proxy);
    for (let round = 0; round < rounds; round++) {
      for (const [index, scenario] of scenarios.entries()) {
        // Back to back, in alternating order, so drift between the two is small and unbiased.
        const first = round % 2 === 0 ? 'direct' : 'proxy';
        const second = first === 'direct' ? 'proxy' : 'direct';
        const pair = { [first]: await measure(scenario[first]), [second]: await measure(scenario[second]) } as {
          direct: Measured;
          proxy: Measured;
        };
        pairs[index].push(pair);
      }
    }
  } finally {
    proxy.child.kill();
    await direct.close();
  }
  return {
    model: 'stories260K',
    rows: scenarios.map((scenario, index) => ({
      name: scenario.name,
      direct: median(pairs[index].map((pair) => pair.direct.rate)),
      proxy: median(pairs[index].map((pair) => pair.proxy.rate)),
      ratio: median(pairs[index].map((pair) => pair.proxy.rate / pair.direct.rate)),
      directFirstTokenMs: median(pairs[index].map((pair) => pair.direct.firstTokenMs)),
      proxyFirstTokenMs: median(pairs[index].map((pair) => pair.proxy.firstTokenMs)),
    })),
  };
}
