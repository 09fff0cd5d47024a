/**
 * `npm run bench`: side-by-side throughput in one run, so a noisy shared
 * machine affects every target alike. Targets: the upstream directly, the
 * floor (a pass-through proxy that translates nothing) and dialect-proxy.
 * Rounds alternate between targets; the median of each is reported, with
 * ratios to the upstream and the floor. Then the bundled worker against
 * node-llama-cpp called directly.
 */
import { Pool } from 'undici';
import { median, startChild } from './children.js';
import { benchWorker } from './worker.js';
import { benchWorkers, printWorkers } from './workers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

interface Scenario {
  name: string;
  path: string;
  upstreamPath: string;
  body: string;
}

const scenarios: Scenario[] = [
  { name: 'chat, JSON', path: '/v1/chat/completions', upstreamPath: '/v1/chat/completions', body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: 32 }) },
  { name: 'chat, stream (32 chunks)', path: '/v1/chat/completions', upstreamPath: '/v1/chat/completions', body: JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Tell me a story.' }], max_tokens: 32, stream: true }) },
];

/** Requests per second over `seconds`, with `concurrency` requests in flight. */
async function measure(port: number, path: string, body: string): Promise<number> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency, pipelining: 1 });
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const response = await pool.request({ method: 'POST', path, body, headers: { 'content-type': 'application/json' } });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode} from port ${port}${path}`);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return done / elapsed;
}

/** `npm run bench -- --workers`: the --workers comparison alone. */
const workersOnly = process.argv.includes('--workers');
const workersOptions = { seconds, rounds, concurrency: Number(process.env.BENCH_WORKERS_CONCURRENCY ?? 32) };

async function main(): Promise<void> {
  if (workersOnly) {
    printWorkers(await benchWorkers(workersOptions), workersOptions);
    return;
  }
  const upstream = await startChild('./upstream.js');
  const proxies = await startChild('./proxies.js', [String(upstream.ports[0])]);
  const [upstreamPort] = upstream.ports;
  const [floorPort, proxyPort] = proxies.ports;
  console.log(`bench: ${seconds}s x ${rounds} rounds per target, ${concurrency} in flight; median requests/s\n`);
  console.log('| scenario | upstream direct | floor (pass-through) | dialect-proxy | proxy / floor | proxy / direct |');
  console.log('|---|---|---|---|---|---|');
  try {
    for (const scenario of scenarios) {
      const results = { direct: [] as number[], floor: [] as number[], proxy: [] as number[] };
      await measure(proxyPort, scenario.path, scenario.body); // warm-up
      for (let round = 0; round < rounds; round++) {
        results.direct.push(await measure(upstreamPort, scenario.upstreamPath, scenario.body));
        results.floor.push(await measure(floorPort, scenario.upstreamPath, scenario.body));
        results.proxy.push(await measure(proxyPort, scenario.path, scenario.body));
      }
      const [direct, floor, proxy] = [median(results.direct), median(results.floor), median(results.proxy)];
      console.log(`| ${scenario.name} | ${direct.toFixed(0)} | ${floor.toFixed(0)} | ${proxy.toFixed(0)} | ${(proxy / floor).toFixed(2)} | ${(proxy / direct).toFixed(2)} |`);
    }
  } finally {
    upstream.process.kill();
    proxies.process.kill();
  }

  printWorkers(await benchWorkers(workersOptions), workersOptions);

  const worker = await benchWorker(Number(process.env.BENCH_WORKER_ROUNDS ?? 15));
  if (!worker) {
    console.log('\nbundled llama.cpp worker: skipped (needs ../shared/models/stories260K.gguf)');
    return;
  }
  console.log(`\nbundled llama.cpp worker (${worker.model}, 1 thread): median tokens/s; ratio: median of back-to-back pairs\n`);
  console.log('| scenario | node-llama-cpp direct | dialect-proxy | proxy / direct | first token, direct | first token, proxy |');
  console.log('|---|---|---|---|---|---|');
  for (const row of worker.rows) {
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(`| ${row.name} | ${row.direct.toFixed(0)} | ${row.proxy.toFixed(0)} | ${row.ratio.toFixed(2)} | ${ms(row.directFirstTokenMs)} | ${ms(row.proxyFirstTokenMs)} |`);
  }
}

await main();
