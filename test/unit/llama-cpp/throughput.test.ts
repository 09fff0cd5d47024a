/**
 * Not a timed assertion: measures a 256-token greedy stream through the worker host
 * against node-llama-cpp's LlamaCompletion in this process, and prints tokens/s.
 */
import { getLlama, LlamaCompletion, LlamaLogLevel } from 'node-llama-cpp';
import { LlamaWorkerHost } from '../../../adapters/llama-cpp/worker-host.js';
import { describeShared, run, storiesPath, tinyRandomPath } from './helpers.js';

const tokens = 256;
const report: string[] = [];
const rate = (count: number, ms: number) => Math.round((count * 1000) / ms);

describeShared('throughput (printed, not asserted)', () => {
  afterAll(() => process.stdout.write(`\n${report.join('\n')}\n`));

  it('worker host vs LlamaCompletion in-process, stories260K, 1 thread', async () => {
    const host = new LlamaWorkerHost({ model: storiesPath, parallel: 2, showProgress: false });
    await host.start();
    await run(host, { temperature: 0, maxTokens: 16 }); // warm-up
    for (let i = 0; i < 3; i++) {
      const began = performance.now();
      const result = await run(host, { temperature: 0, maxTokens: tokens, ignoreEos: true });
      const ms = performance.now() - began;
      report.push(`host stream      : ${result.end.usage.completionTokens} tokens in ${ms.toFixed(0)} ms = ${rate(result.end.usage.completionTokens, ms)} tok/s (worker-measured ${Math.round(result.end.perf.tokensPerSecond)} tok/s, ttft ${result.end.perf.timeToFirstTokenMs.toFixed(1)} ms)`);
    }
    for (let i = 0; i < 2; i++) {
      const began = performance.now();
      const result = await run(host, { temperature: 0, maxTokens: tokens, ignoreEos: true, logprobs: 5 });
      const ms = performance.now() - began;
      report.push(`host + logprobs 5: ${result.end.usage.completionTokens} tokens in ${ms.toFixed(0)} ms = ${rate(result.end.usage.completionTokens, ms)} tok/s`);
    }
    const began = performance.now();
    const pair = await Promise.all([1, 2].map((seed) => run(host, { temperature: 0.8, seed, maxTokens: tokens, ignoreEos: true })));
    const ms = performance.now() - began;
    const total = pair.reduce((sum, result) => sum + result.end.usage.completionTokens, 0);
    report.push(`host 2 parallel  : ${total} tokens in ${ms.toFixed(0)} ms = ${rate(total, ms)} tok/s aggregate`);
    await host.close();

    const llama = await getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: LlamaLogLevel.error });
    const model = await llama.loadModel({ modelPath: storiesPath });
    const context = await model.createContext({ contextSize: 2048, threads: 1 });
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    await completion.generateCompletion('Once upon a time', { maxTokens: 16, temperature: 0 });
    for (let i = 0; i < 3; i++) {
      let count = 0;
      const started = performance.now();
      await completion.generateCompletion('Once upon a time', { maxTokens: tokens, temperature: 0, onToken: (chunk) => (count += chunk.length) });
      const elapsed = performance.now() - started;
      report.push(`LlamaCompletion  : ${count} tokens in ${elapsed.toFixed(0)} ms = ${rate(count, elapsed)} tok/s`);
    }
    await context.dispose();
    await model.dispose();
  }, 120_000);

  it('logprobs cost on a 32k vocabulary (llama-2-tiny-random): the full distribution crosses into JS per token', async () => {
    const host = new LlamaWorkerHost({ model: tinyRandomPath, showProgress: false });
    await host.start();
    for (const logprobs of [undefined, 5]) {
      const began = performance.now();
      const result = await run(host, { temperature: 0.8, seed: 1, maxTokens: 128, ignoreEos: true, ...(logprobs === undefined ? {} : { logprobs }) });
      const ms = performance.now() - began;
      report.push(`32k vocab ${logprobs === undefined ? 'plain      ' : 'logprobs 5 '}: ${result.end.usage.completionTokens} tokens in ${ms.toFixed(0)} ms = ${rate(result.end.usage.completionTokens, ms)} tok/s`);
    }
    await host.close();
  }, 120_000);
});
